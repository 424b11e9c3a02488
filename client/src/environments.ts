// Where each named environment lives. A test keeps these equal to the contract's `servers`.
export const environments = {
  sandbox: 'https://sandbox.lookup.example.com',
  production: 'https://api.lookup.example.com',
} as const;

export type EnvironmentName = keyof typeof environments;

/** A named environment, or the base URL of any other deployment (a local server, the mock). */
export type Environment = EnvironmentName | `http://${string}` | `https://${string}` | URL;

/** The base URL for an environment, without a trailing slash. Throws on anything else. */
export function resolveBaseUrl(environment: Environment): string {
  if (typeof environment === 'string' && Object.hasOwn(environments, environment)) {
    return environments[environment as EnvironmentName];
  }
  let url: URL;
  try {
    url = new URL(String(environment));
  } catch {
    throw new TypeError(
      `environment must be 'sandbox', 'production' or an http(s) base URL, got ${JSON.stringify(String(environment))}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`environment URL must be http(s), got ${url.protocol}`);
  }
  if (url.search || url.hash) throw new TypeError('environment URL must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}
