import type { Scope } from './scopes.ts';

/** An app a user authorised through OAuth, as the API and apps page lists it (one per grant). */
export interface AuthorisedApp {
  grantId: string;
  name: string;
  /** The host of its client id (metadata-document apps) or of its redirect URI (registered apps). */
  clientIdHost: string;
  /** True when identified by a Client ID Metadata Document we fetched; false: the name is self-declared. */
  verified: boolean;
  scopes: Scope[];
  authorisedAt: Date;
  lastUsedAt: Date | null;
}
