import { BlockList, isIP } from 'node:net';

/**
 * Ranges no geo-IP database can place (RFC 6890 special-purpose blocks): loopback, private, link-local, CGNAT,
 * documentation, benchmarking, multicast, reserved, unique-local. Asking the database about them is wasted work.
 */
const notLocatable = new BlockList();
const IPV4_SPECIAL: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation (TEST-NET-1..3)
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];
const IPV6_SPECIAL: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10],
  ['ff00::', 8], // multicast
];
for (const [network, prefix] of IPV4_SPECIAL) notLocatable.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_SPECIAL) notLocatable.addSubnet(network, prefix, 'ipv6');

export interface PublicAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The address to look up, or undefined when it is malformed or not public. An IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, what a dual-stack socket reports for IPv4 clients) is answered as the IPv4 address it carries.
 */
export function publicAddress(raw: string): PublicAddress | undefined {
  // A zone id (`fe80::1%eth0`) only exists on scoped, i.e. link-local, addresses.
  if (raw.includes('%')) return undefined;
  const family = isIP(raw);
  if (family === 0) return undefined;
  const candidate: PublicAddress =
    family === 4 ? { address: raw, family: 4 } : (mappedIPv4(raw) ?? { address: raw.toLowerCase(), family: 6 });
  const type = candidate.family === 4 ? 'ipv4' : 'ipv6';
  return notLocatable.check(candidate.address, type) ? undefined : candidate;
}

/** `::ffff:a.b.c.d` in any spelling (dotted or hex, zeros written out or not) -> `{ a.b.c.d, 4 }`. */
function mappedIPv4(v6: string): PublicAddress | undefined {
  const words = hextets(v6);
  if (words.slice(0, 5).some((w) => w !== 0) || words[5] !== 0xffff) return undefined;
  const [high, low] = [words[6]!, words[7]!];
  return { address: [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'), family: 4 };
}

/** The eight 16-bit words of an IPv6 address already checked by `isIP`. */
function hextets(v6: string): number[] {
  let text = v6.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((word) => parseInt(word, 16));
}
