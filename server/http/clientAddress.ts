// The client's address, for the failed-authentication budget. Behind a load balancer the
// connection comes from the balancer, which names the client in X-Forwarded-For; anyone
// can send that header, so it is believed only from the proxies an operator lists
// (TRUSTED_PROXIES: addresses and CIDR ranges). The list is read right to left, as each
// proxy appends the address it saw: the client is the first address, from the right, that
// is not a trusted proxy. Whatever a client wrote further left is never reached.

import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { trustedProxyList } from '../config.js';

export type ClientAddressOf = (req: IncomingMessage) => string;

export function clientAddressResolver(trustedProxies: readonly string[]): ClientAddressOf {
  // A connection's peer does not change: worked out once per connection, not per request.
  const peers = new WeakMap<object, string>();
  const peer = (req: IncomingMessage) => {
    let address = peers.get(req.socket);
    if (address === undefined) peers.set(req.socket, (address = plainAddress(req.socket.remoteAddress ?? '') ?? 'unknown'));
    return address;
  };
  if (trustedProxies.length === 0) return peer;
  const trusted = trustedProxyList(trustedProxies);
  const isTrusted = (address: string) => trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  return (req) => {
    let client = peer(req);
    if (!isTrusted(client)) return client;
    const forwarded = req.headers['x-forwarded-for'];
    if (forwarded === undefined) return client;
    // Several header lines are one list, in order (node joins them with ", ").
    const hops = ([] as string[]).concat(forwarded).join(',').split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plainAddress(hops[i]!.trim());
      if (hop === undefined) return client; // garbage from a trusted proxy: keep the last address we know
      client = hop;
      if (!isTrusted(client)) return client;
    }
    return client;
  };
}

/** The address without an IPv4-mapped prefix, brackets or port; undefined when it is none. */
function plainAddress(text: string): string | undefined {
  let address = text;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':')); // 192.0.2.1:5678
  if (/^::ffff:[\d.]+$/i.test(address)) address = address.slice(7);
  return isIP(address) ? address : undefined;
}
