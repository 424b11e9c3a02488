// Where the client sends its requests. There are no named environments: the contract's
// sandbox and production hosts are placeholders until those environments open (a test keeps
// the client and the contract's `servers` in step), so a consumer always says where the
// service is, typically from its own configuration.

/** The base URL of a deployment: `https://…` (or `http://…` for a local server or the mock). */
export type BaseUrl = string | URL;

/** The base URL without a trailing slash. Throws a TypeError on anything but an http(s) URL. */
export function resolveBaseUrl(baseUrl: BaseUrl): string {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError(`baseUrl must be an http(s) URL such as https://lookup.internal.example, got ${JSON.stringify(String(baseUrl))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl must be http(s), got ${url.protocol}`);
  if (url.search || url.hash) throw new TypeError('baseUrl must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}
