import { BlockList, isIP } from 'node:net';

/**
 * Outgoing requests (scans, webhooks, client metadata documents) refuse private and special-use addresses,
 * so the service cannot be used to reach its own network. Loopback is allowed only when configured
 * (OUTBOUND_ALLOW_LOOPBACK, which tests and the local demo set). Scans apply this through infra/scan-target.ts.
 */

export type AddressVerdict = 'public' | 'loopback' | 'private';

export interface SpecialRange {
  cidr: string;
  name: string;
  rfc: string;
  /** loopback: allowed only with OUTBOUND_ALLOW_LOOPBACK; embedded-ipv4: judged by the IPv4 address inside. */
  kind: 'refused' | 'loopback' | 'embedded-ipv4';
}

/**
 * IANA's IPv4 and IPv6 Special-Purpose Address Registries (as of 2025), plus multicast, IPv6 site-local and
 * the deprecated IPv4-compatible block from the address-space registries. A range is refused as a whole even
 * where the registry marks parts of it globally reachable (anycast services such as AS112, AMT, PCP/TURN
 * anycast, ORCHIDv2, DETs): none is a page anyone scans, and a partial rule is one more to get wrong. The
 * first matching row decides, so narrower rows come before the blocks that contain them.
 */
export const SPECIAL_RANGES: readonly SpecialRange[] = [
  // IPv4
  { cidr: '0.0.0.0/8', name: '"This network"', rfc: 'RFC 791', kind: 'refused' },
  { cidr: '10.0.0.0/8', name: 'Private-Use', rfc: 'RFC 1918', kind: 'refused' },
  { cidr: '100.64.0.0/10', name: 'Shared Address Space (carrier-grade NAT)', rfc: 'RFC 6598', kind: 'refused' },
  { cidr: '127.0.0.0/8', name: 'Loopback', rfc: 'RFC 1122', kind: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'Link Local (cloud metadata services)', rfc: 'RFC 3927', kind: 'refused' },
  { cidr: '172.16.0.0/12', name: 'Private-Use', rfc: 'RFC 1918', kind: 'refused' },
  {
    cidr: '192.0.0.0/24',
    name: 'IETF Protocol Assignments (incl. DS-Lite, NAT64 discovery, PCP/TURN anycast)',
    rfc: 'RFC 6890',
    kind: 'refused',
  },
  { cidr: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', kind: 'refused' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535', kind: 'refused' },
  { cidr: '192.52.193.0/24', name: 'AMT', rfc: 'RFC 7450', kind: 'refused' },
  { cidr: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', rfc: 'RFC 7526', kind: 'refused' },
  { cidr: '192.168.0.0/16', name: 'Private-Use', rfc: 'RFC 1918', kind: 'refused' },
  { cidr: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', kind: 'refused' },
  { cidr: '198.18.0.0/15', name: 'Benchmarking', rfc: 'RFC 2544', kind: 'refused' },
  { cidr: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', rfc: 'RFC 5737', kind: 'refused' },
  { cidr: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', rfc: 'RFC 5737', kind: 'refused' },
  { cidr: '224.0.0.0/4', name: 'Multicast', rfc: 'RFC 5771', kind: 'refused' },
  { cidr: '255.255.255.255/32', name: 'Limited Broadcast', rfc: 'RFC 919', kind: 'refused' },
  { cidr: '240.0.0.0/4', name: 'Reserved', rfc: 'RFC 1112', kind: 'refused' },
  // IPv6
  { cidr: '::1/128', name: 'Loopback Address', rfc: 'RFC 4291', kind: 'loopback' },
  {
    cidr: '::/96',
    name: 'IPv4-compatible (deprecated; includes the Unspecified Address ::/128)',
    rfc: 'RFC 4291',
    kind: 'refused',
  },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped Address', rfc: 'RFC 4291', kind: 'embedded-ipv4' },
  { cidr: '::ffff:0:0:0/96', name: 'IPv4-translated (SIIT)', rfc: 'RFC 2765', kind: 'refused' },
  { cidr: '64:ff9b::/96', name: 'IPv4-IPv6 Translation (NAT64 well-known prefix)', rfc: 'RFC 6052', kind: 'refused' },
  { cidr: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translation (local-use NAT64)', rfc: 'RFC 8215', kind: 'refused' },
  { cidr: '100::/64', name: 'Discard-Only Address Block', rfc: 'RFC 6666', kind: 'refused' },
  { cidr: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', rfc: 'RFC 9780', kind: 'refused' },
  {
    cidr: '2001::/23',
    name: 'IETF Protocol Assignments (incl. TEREDO, benchmarking, ORCHID; AMT, AS112, ORCHIDv2 and anycast parts refused too)',
    rfc: 'RFC 2928',
    kind: 'refused',
  },
  { cidr: '2001:db8::/32', name: 'Documentation', rfc: 'RFC 3849', kind: 'refused' },
  {
    cidr: '2002::/16',
    name: '6to4 (deprecated relays; the embedded IPv4 may be anything)',
    rfc: 'RFC 3056',
    kind: 'refused',
  },
  { cidr: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', kind: 'refused' },
  { cidr: '3fff::/20', name: 'Documentation', rfc: 'RFC 9637', kind: 'refused' },
  { cidr: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602', kind: 'refused' },
  { cidr: 'fc00::/7', name: 'Unique-Local', rfc: 'RFC 4193', kind: 'refused' },
  { cidr: 'fe80::/10', name: 'Link-Local Unicast', rfc: 'RFC 4291', kind: 'refused' },
  { cidr: 'fec0::/10', name: 'Site-Local (deprecated)', rfc: 'RFC 3879', kind: 'refused' },
  { cidr: 'ff00::/8', name: 'Multicast', rfc: 'RFC 4291', kind: 'refused' },
];

const matchers = SPECIAL_RANGES.map((range) => {
  const [network, bits] = range.cidr.split('/') as [string, string];
  const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  list.addSubnet(network, Number(bits), family);
  return { range, family, list };
});

/** The registry row an address falls in, or undefined for an ordinary (public) address. */
export function specialRangeOf(address: string): SpecialRange | undefined {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = isIP(ip) === 6 ? 'ipv6' : isIP(ip) === 4 ? 'ipv4' : null;
  if (!family) return undefined;
  return matchers.find((m) => m.family === family && m.list.check(ip, family))?.range;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d, also written ::ffff:XXXX:XXXX). */
function embeddedIpv4(ip: string): string {
  // The URL parser writes every IPv6 form the same canonical way: [::ffff:7f00:1].
  const [high = 0, low = 0] = new URL(`http://[${ip}]/`).hostname
    .replace(/^\[::ffff:|\]$/g, '')
    .split(':')
    .map((group) => parseInt(group, 16));
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function classifyAddress(address: string): AddressVerdict {
  const ip = address.replace(/^\[|\]$/g, '');
  // Not an IP address at all: never treated as public.
  if (!isIP(ip)) return 'private';
  const range = specialRangeOf(ip);
  if (!range) return 'public';
  if (range.kind === 'embedded-ipv4') return classifyAddress(embeddedIpv4(ip));
  return range.kind === 'loopback' ? 'loopback' : 'private';
}
