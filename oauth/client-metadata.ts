import { readFileSync } from 'node:fs';
import type { Config } from '../core/config.ts';
import { outboundFetch } from '../services/outbound-fetch.ts';
import { CLIENT_METADATA_MAX_BYTES } from './provider-limits.ts';

/** Client ID Metadata Documents come from the app's own server, so they count as untrusted outgoing requests. */
export const CLIENT_METADATA_TIMEOUT_MS = 2_500;

/**
 * How the authorization server fetches a Client ID Metadata Document: through the outbound rule every
 * outgoing request follows (public addresses only, loopback only when configured), https only, no
 * redirects, a size cap and a timeout.
 */
export function clientMetadataFetch(config: Config): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return outboundFetch({
    allowLoopback: config.outboundAllowLoopback,
    timeoutMs: CLIENT_METADATA_TIMEOUT_MS,
    maxBytes: CLIENT_METADATA_MAX_BYTES,
    ca: config.oauth.metadataCaFile ? readFileSync(config.oauth.metadataCaFile) : undefined,
  });
}
