import type { Client } from 'oidc-provider';
import type { AuthorisedApp } from '../core/oauth/apps.ts';
import { parseScopes } from '../core/oauth/scopes.ts';
import type { OAuthStore } from '../db/store/oauth.ts';

/** How an app is shown to people: its own name (or its host), the host that vouches for it, and whether that host was checked. */
export interface ClientDescription {
  name: string;
  clientIdHost: string;
  /** True for Client ID Metadata Documents (the client id is an https URL we fetched); false for registered clients, whose name is self-declared. */
  verified: boolean;
}

export function describeClient(client: Client, redirectUri: string): ClientDescription {
  const verified = (client as Client & { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument === true;
  const clientIdHost = verified ? new URL(client.clientId).host : new URL(redirectUri).host;
  const name =
    typeof client.clientName === 'string' && client.clientName.trim()
      ? client.clientName.trim().slice(0, 100)
      : clientIdHost;
  return { name, clientIdHost, verified };
}

/** The user's authorised apps, newest first. */
export async function listApps(store: OAuthStore, userId: number): Promise<AuthorisedApp[]> {
  return (await store.listApps(userId)).map((app) => ({
    grantId: app.grantId,
    name: app.name,
    clientIdHost: app.clientIdHost,
    verified: app.verified,
    scopes: parseScopes(app.scopes.join(' ')),
    authorisedAt: app.authorisedAt,
    lastUsedAt: app.lastUsedAt,
  }));
}

/** Revokes an app the user authorised: the grant and every code and token issued under it, at once. False when the user has no such app. */
export async function revokeApp(store: OAuthStore, userId: number, grantId: string): Promise<boolean> {
  const app = await store.findApp(grantId);
  if (!app || app.userId !== userId) return false;
  await store.revokeGrant(grantId);
  return true;
}

/** How often workers delete expired OAuth artifacts (codes, tokens, interactions, grants past their year). */
export const OAUTH_SWEEP_EVERY_MS = 60 * 60_000;

export const sweepExpiredOAuth = (store: OAuthStore, now: Date): Promise<number> => store.deleteExpiredBefore(now);
