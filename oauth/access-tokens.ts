import { resourceUrl } from '../core/oauth/resources.ts';
import { parseScopes } from '../core/oauth/scopes.ts';
import type { TokenVerifier } from '../core/token-verifier.ts';
import type { OAuthStore } from '../db/store/oauth.ts';
import { artifactKey } from './adapter.ts';

/** oidc-provider's opaque token values: 43 base64url characters (256 bits). */
const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** How often an app's "last used" is written at most (once a minute, not on every call). */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * OAuth access tokens for the authentication seam (core/token-verifier.ts): found by hash with their owner in one
 * prepared statement; valid while unexpired by the service's clock, for the resource they were issued for
 * (`aud`), with the scopes the user granted. A revoked grant has no tokens left to find.
 */
export function oauthTokenVerifier(store: OAuthStore, baseUrl: string): TokenVerifier {
  return async (token, now, resource) => {
    if (!OPAQUE_TOKEN.test(token)) return null;
    const found = await store.findAccessToken(artifactKey(token));
    if (!found) return null;
    const { payload } = found;
    const expiresAtMs = typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
    if (expiresAtMs <= now.getTime()) return null;
    if (payload.aud !== resourceUrl(baseUrl, resource)) return null;
    const grantId = String(payload.grantId ?? '');
    await store.touchApp(grantId, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS));
    return {
      principal: {
        userId: found.user.id,
        kind: 'oauth',
        tokenId: grantId,
        scopes: parseScopes(typeof payload.scope === 'string' ? payload.scope : ''),
        clientId: String(payload.clientId ?? ''),
      },
      user: found.user,
    };
  };
}
