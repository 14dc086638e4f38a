import { BlockList, isIP } from 'node:net';
import type { Context, Next } from 'koa';

/** IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d; one spelling for both. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Whether an address (either spelling of IPv4) is one of TRUSTED_PROXIES. */
export function trustedProxyMatcher(trustedProxies: readonly string[]): (address: string) => boolean {
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = '', prefix = ''] = entry.split('/');
    trusted.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
  return (raw) => {
    const address = plain(raw);
    return isIP(address) !== 0 && trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The client's address: the connecting peer, unless that peer is a trusted proxy, in which case the address
 * that proxy appended to X-Forwarded-For, and so on leftwards while the hops are trusted proxies. Entries a
 * client wrote itself sit left of the first untrusted hop and are never read.
 */
export function clientAddressResolver(
  trustedProxies: readonly string[],
): (peer: string, forwardedFor: string) => string {
  const isTrusted = trustedProxyMatcher(trustedProxies);
  return (peer, forwardedFor) => {
    let client = plain(peer);
    const hops = forwardedFor.split(',').map((hop) => plain(hop.trim()));
    while (isTrusted(client) && hops.length > 0) {
      const next = hops.pop()!;
      if (isIP(next) === 0) break; // a proxy we trust wrote nonsense: keep the last address we can vouch for
      client = next;
    }
    return client;
  };
}

/** Sets ctx.ip (used by the sign-in throttle and the access log) from the trusted proxies only. */
export function clientAddress(trustedProxies: readonly string[]) {
  const resolve = clientAddressResolver(trustedProxies);
  return async (ctx: Context, next: Next) => {
    ctx.request.ip = resolve(
      ctx.req.socket.remoteAddress ?? '',
      trustedProxies.length > 0 ? ctx.get('x-forwarded-for') : '',
    );
    await next();
  };
}
