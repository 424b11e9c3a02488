// Which addresses a webhook may be sent to: public unicast ones only, so that an endpoint
// cannot make the service reach into its own network (SSRF). Checked on every address a
// target's name resolves to, at `webhooks add` and before every delivery, and the
// delivery then connects to the address checked (post.ts), so a name that resolves
// elsewhere by then (DNS rebinding) reaches nothing else.
import { BlockList, isIP } from 'node:net';

/** IPv4 ranges that are not public unicast (IANA's special-purpose registry). */
const V4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** IPv6 ranges that are not public unicast; the IPv4-mapped and NAT64 ones are judged by the IPv4 address they hold. */
const V6_RANGES: [string, number, string][] = [
  ['::1', 128, 'loopback'],
  ['::', 96, 'unspecified or IPv4-compatible'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'reserved (IETF protocol assignments)'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

const kinds = new Map<BlockList, [string, number, string][]>();
function blockList(ranges: [string, number, string][], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of ranges) list.addSubnet(address, prefix, type);
  kinds.set(list, ranges);
  return list;
}
const v4Blocked = blockList(V4_RANGES, 'ipv4');
const v6Blocked = blockList(V6_RANGES, 'ipv6');

/** Why `address` is not a public unicast address (`loopback`, `private`…), or undefined when it is one. */
export function nonPublicKind(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return kindIn(v4Blocked, bare, 'ipv4');
  if (family !== 6) return 'not an IP address';
  const bytes = ipv6Bytes(bare);
  const embedded = embeddedIpv4(bytes);
  if (embedded) {
    const kind = kindIn(v4Blocked, embedded, 'ipv4');
    return kind && `${kind} (as IPv4 inside IPv6)`;
  }
  return kindIn(v6Blocked, bare, 'ipv6');
}

function kindIn(list: BlockList, address: string, type: 'ipv4' | 'ipv6'): string | undefined {
  if (!list.check(address, type)) return undefined;
  const single = new BlockList();
  for (const [range, prefix, kind] of kinds.get(list)!) {
    single.addSubnet(range, prefix, type);
    if (single.check(address, type)) return kind;
  }
  return 'not public';
}

/** The IPv4 address an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address stands for. */
function embeddedIpv4(bytes: number[]): string | undefined {
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && bytes.slice(4, 12).every((b) => b === 0);
  return mapped || nat64 ? bytes.slice(12).join('.') : undefined;
}

/** An IPv6 address's 16 bytes (`::` expanded, a trailing dotted IPv4 read as 4 bytes). */
function ipv6Bytes(address: string): number[] {
  const text = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string) => {
    if (!part) return [];
    const pieces = part.split(':');
    const last = pieces.at(-1)!;
    if (last.includes('.')) {
      const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
      pieces.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    return pieces.map((p) => Number.parseInt(p, 16));
  };
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
}
