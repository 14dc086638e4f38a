import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from '../core/outbound.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';

/**
 * The one rule for "may a scan fetch this host": every address it stands for must be public (core/outbound.ts),
 * or loopback when OUTBOUND_ALLOW_LOOPBACK allows it. Used by scan submission (IP literals only: a name is
 * judged when the scan runs, against the addresses then used), by the runner before it starts Chromium, and
 * by the browser's egress proxy for every host a page reaches.
 */
export type ScanTargetVerdict =
  | { allowed: true; addresses: string[] }
  /** `literal`: the host is itself an address (the API refuses those with a 422). */
  | { allowed: false; code: 'blocked_address'; literal: boolean; reason: string }
  /** `temporary`: the resolver failed (rather than saying the name does not exist); worth retrying later. */
  | { allowed: false; code: 'dns_failed'; temporary: boolean; reason: string };

/** A name's addresses; throws like node:dns's lookup (`code: 'ENOTFOUND'` when the name does not exist). */
export type HostLookup = (host: string) => Promise<string[]>;

const systemLookup: HostLookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface ScanTargetOptions {
  allowLoopback: boolean;
  /** False: judge IP literals only and let names pass unresolved (`addresses` is then empty). */
  resolveNames?: boolean;
  lookup?: HostLookup;
}

/** `host` as in a URL: a name, an IPv4 address, or an IPv6 address with or without brackets. */
export async function checkScanTarget(host: string, options: ScanTargetOptions): Promise<ScanTargetVerdict> {
  const bare = host.replace(/^\[|\]$/g, '');
  const literal = isIP(bare) !== 0;
  if (!literal && options.resolveNames === false) return { allowed: true, addresses: [] };
  let addresses: string[];
  try {
    addresses = literal ? [bare] : await (options.lookup ?? systemLookup)(bare);
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ENOTFOUND';
    return {
      allowed: false,
      code: 'dns_failed',
      temporary: !missing,
      reason: FAILURE_DETAILS.unresolvedHost(bare, missing ? undefined : (error as Error).message),
    };
  }
  if (addresses.length === 0)
    return { allowed: false, code: 'dns_failed', temporary: false, reason: FAILURE_DETAILS.noAddresses(bare) };
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (verdict === 'private' || (verdict === 'loopback' && !options.allowLoopback)) {
      return {
        allowed: false,
        code: 'blocked_address',
        literal,
        reason: FAILURE_DETAILS.blockedAddress(host, address),
      };
    }
  }
  return { allowed: true, addresses };
}
