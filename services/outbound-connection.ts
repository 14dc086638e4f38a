import type { ClientRequest, RequestOptions } from 'node:http';
import { isIP } from 'node:net';
import { classifyAddress } from '../core/outbound.ts';
import { checkScanTarget, type HostLookup } from '../core/scan-target.ts';

export class RefusedAddressError extends Error {}

export interface OutboundRule {
  allowLoopback: boolean;
  /** Tests resolve names their own way; the system resolver otherwise. */
  lookup?: HostLookup;
}

/** The host's addresses, every one judged by the outbound rule (core/outbound.ts); throws RefusedAddressError otherwise. */
export async function judgeHost(host: string, rule: OutboundRule): Promise<string[]> {
  const verdict = await checkScanTarget(host, { allowLoopback: rule.allowLoopback, lookup: rule.lookup });
  if (!verdict.allowed) throw new RefusedAddressError(verdict.reason);
  return verdict.addresses;
}

/** A `lookup` for node:http(s) that connects only to judged addresses. */
export function judgedLookup(rule: OutboundRule): NonNullable<RequestOptions['lookup']> {
  return ((name: string, options: { all?: boolean }, callback: (error: Error | null, address: string | Array<{ address: string; family: number }>, family?: number) => void) => {
    judgeHost(name, rule).then(
      (addresses) => {
        const all = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      (error: Error) => callback(error, ''),
    );
  }) as NonNullable<RequestOptions['lookup']>;
}

/**
 * Checks the peer address once the socket connects: a name that resolves differently between check and
 * connect (DNS rebinding) cannot reach a private address.
 */
export function guardPeer(outgoing: ClientRequest, rule: OutboundRule): void {
  outgoing.on('socket', (socket) => {
    socket.once('connect', () => {
      const peer = socket.remoteAddress ?? '';
      const verdict = classifyAddress(peer);
      if (verdict === 'private' || (verdict === 'loopback' && !rule.allowLoopback)) {
        outgoing.destroy(new RefusedAddressError(`connected to ${peer}, a private or special-use address`));
      }
    });
  });
}
