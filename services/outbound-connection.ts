import type { ClientRequest, RequestOptions } from 'node:http';
import { isIP } from 'node:net';
import { classifyAddress } from '../core/outbound.ts';
import { checkScanTarget, type HostLookup } from '../infra/scan-target.ts';

/**
 * The outbound rule refused a host. Its message is shown to the user who chose the URL (a webhook's delivery
 * page, an app's authorization error): it names the host as they gave it, never the address it resolved to,
 * so that the service's own name resolution (internal names, local services) is not revealed.
 */
export class RefusedAddressError extends Error {}

const refusedHost = (host: string, literal: boolean) =>
  new RefusedAddressError(
    literal ? `${host} is a private or special-use address` : `${host} resolves to a private or special-use address`,
  );

export interface OutboundRule {
  allowLoopback: boolean;
  /** Tests resolve names their own way; the system resolver otherwise. */
  lookup?: HostLookup;
}

/** The host's addresses, every one judged by the outbound rule (core/outbound.ts); throws RefusedAddressError otherwise. */
export async function judgeHost(host: string, rule: OutboundRule): Promise<string[]> {
  const verdict = await checkScanTarget(host, { allowLoopback: rule.allowLoopback, lookup: rule.lookup });
  if (verdict.allowed) return verdict.addresses;
  throw verdict.code === 'blocked_address'
    ? refusedHost(host, verdict.literal)
    : new RefusedAddressError(verdict.reason);
}

/** A `lookup` for node:http(s) that connects only to judged addresses. */
export function judgedLookup(rule: OutboundRule): NonNullable<RequestOptions['lookup']> {
  return ((
    name: string,
    options: { all?: boolean },
    callback: (
      error: Error | null,
      address: string | Array<{ address: string; family: number }>,
      family?: number,
    ) => void,
  ) => {
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
        outgoing.destroy(refusedHost(outgoing.host, isIP(outgoing.host.replace(/^\[|\]$/g, '')) !== 0));
      }
    });
  });
}

/**
 * An outgoing request's failure as the user who chose the URL may read it. Node's connection errors name the
 * peer (`connect ECONNREFUSED 10.0.0.5:443`), which for a host name is the address it resolved to: those are
 * reduced to what failed (`connect ECONNREFUSED`).
 */
export function outboundFailureText(error: unknown): string {
  if (error instanceof RefusedAddressError) return `refused: ${error.message}`;
  const failure = error as { code?: unknown; syscall?: unknown; address?: unknown; message?: unknown };
  const message = typeof failure.message === 'string' ? failure.message : '';
  if (
    typeof failure.code === 'string' &&
    (typeof failure.address === 'string' || error instanceof AggregateError || !message)
  ) {
    return `${typeof failure.syscall === 'string' ? failure.syscall : 'connect'} ${failure.code}`;
  }
  return message || String(error);
}
