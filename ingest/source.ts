import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';

/**
 * Who sent a request, in the two grains the ingest needs:
 * - `limitKey`: one client for the rate limits and the connection cap. An IPv4 address, or an IPv6 /64
 *   (one subscriber usually holds a whole /64, so single IPv6 addresses would be free to rotate).
 * - `network`: the sender's network for the live-data alerts (IPv4 /24, IPv6 /48), stored in ClickHouse
 *   `rum_metrics.source` as a 32-bit hash, never the address itself. Alerts need several distinct networks
 *   and cap what one network contributes (core/rum/alert-check.ts).
 */
export interface Source {
  limitKey: string;
  network: number;
}

/** IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** The first `groups` 16-bit groups of an IPv6 address, fully written out. */
function ipv6Prefix(address: string, groups: number): string {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const full = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return full
    .slice(0, groups)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':');
}

export function limitKeyOf(address: string): string {
  const ip = plain(address);
  return isIPv6(ip) ? `${ipv6Prefix(ip, 4)}::/64` : ip;
}

export function networkOf(address: string): number {
  const ip = plain(address);
  const prefix = isIPv6(ip) ? `${ipv6Prefix(ip, 3)}::/48` : `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  return createHash('sha256').update(prefix).digest().readUInt32BE(0);
}

export function sourceOf(address: string): Source {
  return { limitKey: limitKeyOf(address), network: networkOf(address) };
}
