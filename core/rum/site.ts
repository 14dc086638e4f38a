/** A live-data site as the rest of the code sees it (db/store/rum-sites.ts returns these). */
export interface RumSite {
  id: number;
  userId: number;
  /** The id in the snippet's data-site-id: random, not derivable from `id`. */
  publicId: string;
  domain: string;
  active: boolean;
  /** Share of page views the script reports, 1–100 (%). */
  sampleRate: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The collector script's URL on the ingest service. The version in the path is the beacon format's (core/rum/
 * beacon.ts `v`): it changes only when the wire format does, so snippets already pasted keep working, and
 * the ingest service decides how long browsers cache it (collector/ and ingest/ own the details).
 */
export function collectorScriptUrl(ingestPublicUrl: string): string {
  return `${ingestPublicUrl.replace(/\/+$/, '')}/c/1/rum.js`;
}

/**
 * The spec's `embed_snippet`: a script tag with `src` at the service's collector script, `data-site-id` and
 * `async`. `collectorUrl` is the versioned script URL (ingest's public URL + collector path). A sample rate
 * below 100 % adds `data-sample`, which the script applies per page view (collector/src/rum.ts), so a changed
 * rate takes effect once the new snippet is on the page; at 100 % the tag is exactly the spec's.
 */
export function embedSnippet(collectorUrl: string, publicId: string, sampleRate = 100): string {
  const sample = sampleRate < 100 ? ` data-sample="${Math.max(0, Math.round(sampleRate))}"` : '';
  return `<script src="${escapeAttribute(collectorUrl)}" data-site-id="${escapeAttribute(publicId)}"${sample} async></script>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Random public site ids: 20 lower-case Crockford base32 characters (100 random bits). */
export function newRumSitePublicId(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (b) => alphabet[b & 31]).join('');
}

export const RUM_SITE_PUBLIC_ID_PATTERN = '^[0-9a-hjkmnp-tv-z]{20}$';

export const MAX_RUM_DOMAIN_LENGTH = 253;

/** `reason`: set when the input was an IP address, which forms name in their own words. */
export type NormalisedRumDomain = { ok: true; domain: string } | { ok: false; error: string; reason?: 'ip_address' };

/**
 * A live-data site's domain: the one rule. A host name, lower-case, IDN as punycode, without a trailing dot;
 * a URL is accepted and reduced to its host (scheme, port, path, query dropped). Refused: IP addresses,
 * `localhost` and `*.localhost`, single-label names, anything that is not a valid DNS name. Subdomains are
 * covered by the site (the ingest service accepts beacons from the domain and its subdomains), so `www.` is
 * kept as given.
 */
export function normaliseRumDomain(input: string): NormalisedRumDomain {
  const text = input.trim();
  if (text === '') return { ok: false, error: 'The domain field is required.' };
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme && !/^https?$/i.test(scheme[1]!))
    return { ok: false, error: 'The domain must be a host name or an http(s) URL.' };
  let host: string;
  try {
    const parsed = new URL(scheme ? text : `http://${text}`);
    if (parsed.username || parsed.password)
      return { ok: false, error: 'The domain must be a host name or an http(s) URL.' };
    host = parsed.hostname.replace(/\.$/, '');
  } catch {
    return { ok: false, error: 'The domain is not a valid domain name.' };
  }
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('['))
    return { ok: false, error: 'The domain must be a domain name, not an IP address.', reason: 'ip_address' };
  if (host === 'localhost' || host.endsWith('.localhost'))
    return { ok: false, error: 'The domain must be a public domain name.' };
  if (!host.includes('.')) return { ok: false, error: 'The domain must be a domain name with a dot.' };
  const labels = host.split('.');
  if (
    host.length > MAX_RUM_DOMAIN_LENGTH ||
    !/^[a-z0-9.-]+$/.test(host) ||
    labels.some((label) => label === '' || label.length > 63 || label.startsWith('-') || label.endsWith('-')) ||
    /^[0-9]+$/.test(labels[labels.length - 1]!)
  ) {
    return { ok: false, error: 'The domain is not a valid domain name.' };
  }
  return { ok: true, domain: host };
}
