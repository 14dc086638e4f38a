import { readFileSync } from 'node:fs';
import type { Config } from '../infra/config.ts';
import { decodeUtf8, unstorableField } from '../http/input-guard.ts';
import { RefusedAddressError } from '../services/outbound-connection.ts';
import { outboundFetch } from '../services/outbound-fetch.ts';
import { CLIENT_METADATA_MAX_BYTES } from './provider-limits.ts';

/** Client ID Metadata Documents come from the app's own server, so they count as untrusted outgoing requests. */
export const CLIENT_METADATA_TIMEOUT_MS = 2_500;

/**
 * What the authorization request's error page says when a document was not fetched because of its address
 * (private, special-use, or loopback where not allowed), rather than oidc-provider's "fetch failed", which
 * a timeout or a refused connection give too. It names no address: a host name's resolution stays ours.
 */
export const METADATA_ADDRESS_REFUSED =
  'The client_id metadata document was not fetched: its host is not on a public address.';

/** What the error page says when a document holds text that is not well-formed (http/input-guard.ts). */
export const METADATA_TEXT_REFUSED =
  'The client_id metadata document was not used: it holds text that is not allowed (NUL, an unpaired surrogate, or bytes that are not UTF-8).';

/** A fetched document whose text is not well-formed: refused before oidc-provider reads (and keeps) it. */
export class IllFormedMetadataError extends Error {
  constructor() {
    super(METADATA_TEXT_REFUSED);
  }
}

/** The page's words for an error (or one it wraps, as its cause) that a document's fetch raised; null for any other. */
export function metadataRefusal(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof RefusedAddressError) return METADATA_ADDRESS_REFUSED;
    if (current instanceof IllFormedMetadataError) return METADATA_TEXT_REFUSED;
    current = current.cause;
  }
  return null;
}

/**
 * How long a fetched document is kept, in seconds: what its `Cache-Control: max-age` (or else its `Expires`)
 * asks, within these bounds; the minimum when it says nothing. `no-store` and `no-cache` are honoured: such a
 * document is fetched again each time it is needed (we do not revalidate, so no-cache means fetching anew).
 */
export const CLIENT_METADATA_CACHE_S = { min: 60, max: 24 * 60 * 60 } as const;

/** The seconds a document with these response headers may be cached (0: not at all). */
export function clientMetadataCacheSeconds(headers: Headers, nowMs: number): number {
  const cacheControl = headers.get('cache-control') ?? '';
  const directives = cacheControl.split(',').map((d) => d.trim().toLowerCase());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache' || d.startsWith('no-cache='))) return 0;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl)?.[1];
  let seconds: number | undefined = maxAge === undefined ? undefined : Number(maxAge);
  if (seconds === undefined) {
    const expires = Date.parse(headers.get('expires') ?? '');
    if (!Number.isNaN(expires)) seconds = Math.floor((expires - nowMs) / 1000);
  }
  return Math.max(
    CLIENT_METADATA_CACHE_S.min,
    Math.min(CLIENT_METADATA_CACHE_S.max, seconds ?? CLIENT_METADATA_CACHE_S.min),
  );
}

/**
 * How the authorization server fetches a Client ID Metadata Document: through the outbound rule every
 * outgoing request follows (public addresses only, loopback only when configured), https only, no
 * redirects, a size cap and a timeout. A document's caching is decided here (clientMetadataCacheSeconds)
 * and handed to oidc-provider as a plain `max-age`, which it keeps as it is (its own bounds are 0 and our
 * maximum): left to itself, it ignores no-store and no-cache and keeps every document at least its minimum.
 */
export function clientMetadataFetch(config: Config): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const fetch = outboundFetch({
    allowLoopback: config.callbacksAllowLoopback,
    timeoutMs: CLIENT_METADATA_TIMEOUT_MS,
    maxBytes: CLIENT_METADATA_MAX_BYTES,
    ca: config.oauth.metadataCaFile ? readFileSync(config.oauth.metadataCaFile) : undefined,
  });
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status !== 200) return response;
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!wellFormedDocument(bytes)) throw new IllFormedMetadataError();
    const headers = new Headers(response.headers);
    headers.set('cache-control', `max-age=${clientMetadataCacheSeconds(response.headers, Date.now())}`);
    headers.delete('expires');
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
  };
}

/** UTF-8 whose JSON (when it is JSON: oidc-provider refuses what is not) holds only well-formed text. */
function wellFormedDocument(bytes: Uint8Array): boolean {
  const text = decodeUtf8(bytes);
  if (text === null) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return true;
  }
  return unstorableField(parsed, 'document') === null;
}
