import type { User } from './user.ts';
import type { Scope } from './oauth/scopes.ts';
import type { ResourceKind } from './oauth/resources.ts';

/** Who made an authenticated call of the API or an MCP tool. */
export interface Principal {
  userId: number;
  /** Which kind of bearer token authenticated the request. */
  kind: 'personal' | 'oauth';
  tokenId: number | string;
  /** What the token may do: personal tokens everything, OAuth tokens what the user granted (core/oauth/scopes.ts). */
  scopes: readonly Scope[];
  /** The OAuth client the token was issued to (OAuth tokens only). */
  clientId?: string;
}

export interface Verified {
  principal: Principal;
  user: User;
}

/**
 * The seam for token kinds: each verifier recognises its own tokens and returns null for anything else
 * (including an OAuth token bound to another resource than `resource`). It returns the user too, so that a
 * verifier can read token and user in one query. The API's authentication (api/auth.ts) tries them in turn;
 * the authorization server (oauth/access-tokens.ts) provides one, and the server root hands it over.
 */
export type TokenVerifier = (token: string, now: Date, resource: ResourceKind) => Promise<Verified | null>;
