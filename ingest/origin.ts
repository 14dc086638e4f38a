/**
 * Whether a page on `host` may send beacons for a site on `domain`: the domain itself or any subdomain of it
 * (`shop.example.com` for `example.com`), never a look-alike (`badexample.com`, `example.com.evil.net`).
 */
export function hostMatchesDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const d = domain.toLowerCase().replace(/\.$/, '');
  return h === d || h.endsWith(`.${d}`);
}

/** The host of the page that sent the beacon: from `Origin`, or from `Referer` when the browser sent no Origin. */
export function senderHost(origin: string | undefined, referer: string | undefined): string | null {
  const source = origin && origin !== 'null' ? origin : referer;
  if (!source) return null;
  try {
    const url = new URL(source);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : null;
  } catch {
    return null;
  }
}
