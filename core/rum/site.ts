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
 * `async`. `collectorUrl` is the versioned script URL (ingest's public URL + collector path).
 */
export function embedSnippet(collectorUrl: string, publicId: string): string {
  return `<script src="${escapeAttribute(collectorUrl)}" data-site-id="${escapeAttribute(publicId)}" async></script>`;
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
