import { isIP } from 'node:net';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The spec's redirect URI rule: `https`, or `http` on a loopback address; nothing else (no custom schemes,
 * no fragments). Returns what is wrong, or undefined. `localhost` counts as loopback here because native
 * clients use it, though RFC 8252 prefers the literal address.
 */
export function checkRedirectUris(uris: unknown): string | undefined {
  if (!Array.isArray(uris) || uris.length === 0) return 'redirect_uris must list at least one URI';
  for (const uri of uris) {
    const parsed = typeof uri === 'string' ? URL.parse(uri) : null;
    if (!parsed) return `redirect_uris: "${String(uri)}" is not an absolute URI`;
    if (parsed.hash || String(uri).includes('#')) return `redirect_uris: "${uri}" must not contain a fragment`;
    if (parsed.protocol === 'https:') {
      if (LOOPBACK_HOSTS.has(parsed.hostname))
        return `redirect_uris: "${uri}" uses https on a loopback address; use http for loopback redirects`;
      continue;
    }
    if (
      parsed.protocol === 'http:' &&
      LOOPBACK_HOSTS.has(parsed.hostname) &&
      (parsed.hostname === 'localhost' || isIP(parsed.hostname.replace(/^\[|\]$/g, '')))
    )
      continue;
    return `redirect_uris: "${uri}" must use https, or http on a loopback address (127.0.0.1, [::1])`;
  }
  return undefined;
}
