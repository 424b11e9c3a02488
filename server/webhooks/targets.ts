// A webhook's target: an https URL whose name resolves to public addresses only
// (addresses.ts). WEBHOOK_ALLOW_PRIVATE_TARGETS (development and tests; refused in
// production by config.ts) lets plain http and any address through, for a receiver on
// this machine. Checked at `webhooks add` and again before each delivery.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nonPublicKind } from './addresses.js';

/** A target that may not be used, and why, in one line. */
export class TargetRefused extends Error {}

/** The address a delivery connects to, checked, and the URL it posts to. */
export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** `text` as a target URL, or TargetRefused saying what is wrong with it (no lookup yet). */
export function targetUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused(`not a URL: "${text}" (an https:// URL such as https://hooks.example.com/lookup)`);
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new TargetRefused(
      `the target must be an https:// URL; got ${url.protocol}//${allowPrivate ? '' : ' (plain http only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, never in production)'}`,
    );
  if (url.username || url.password) throw new TargetRefused('the target URL may not hold a user name or password: they would be shown by list and logged');
  if (url.hash) throw new TargetRefused('the target URL may not have a #fragment: it is never sent');
  if (!url.hostname) throw new TargetRefused('the target URL has no host');
  return url;
}

/** Resolves the target's name and checks every address it gives; the first is the one to connect to. */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<ResolvedTarget> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (error) {
      throw new TargetRefused(`${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
  }
  if (!addresses.length) throw new TargetRefused(`${host} resolves to no address`);
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const kind = nonPublicKind(address);
      // A name with one private address among public ones is refused too: which one a
      // connection would use is not ours to choose once it is handed over.
      if (kind)
        throw new TargetRefused(
          `${host === address ? host : `${host} resolves to ${address}, which`} is a ${kind} address: webhooks go to public addresses only`,
        );
    }
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}
