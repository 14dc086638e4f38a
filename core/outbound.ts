import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Outgoing requests (scans, webhooks, client metadata documents) refuse private and special-use addresses,
 * so the service cannot be used to reach its own network. Loopback is allowed only when configured
 * (OUTBOUND_ALLOW_LOOPBACK, which tests and local demos set).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16],
  ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(net, prefix, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export type AddressVerdict = 'public' | 'loopback' | 'private';

export function classifyAddress(address: string): AddressVerdict {
  let ip = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (loopback.check(ip, family)) return 'loopback';
  return blocked.check(ip, family) ? 'private' : 'public';
}

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or special-use address`);
    this.name = 'BlockedAddressError';
  }
}

/** Resolves the host and refuses it when any of its addresses is not allowed. Returns the addresses. */
export async function assertAllowedHost(host: string, options: { allowLoopback: boolean }): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (verdict === 'private' || (verdict === 'loopback' && !options.allowLoopback)) throw new BlockedAddressError(host, address);
  }
  return addresses;
}
