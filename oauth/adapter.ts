import { createHash } from 'node:crypto';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Clock } from '../core/clock.ts';
import type { OAuthStore } from '../db/store/oauth.ts';

/** Artifacts are stored under a hash of their id: for codes and tokens the id is the secret value itself. */
export const artifactKey = (id: string): string => createHash('sha256').update(id).digest('base64url');

/**
 * Models whose stored payload keeps its id (`jti`): clients have none, and the library finds sessions by
 * their uid, so it needs the id back from the row. A provider session alone authorises nothing here: every
 * consent needs the web sign-in. Every other id (codes, tokens, grants, interactions) is only hashed.
 */
const KEEPS_ID = new Set(['Client', 'Session']);

/** What oidc-provider's `adapter` option takes: a class it instantiates once per model. */
export type AdapterClass = new (model: string) => Adapter;

/**
 * oidc-provider's storage adapter over an OAuthStore (db/store/oauth.ts, Postgres, in the API process), one
 * instance per model. Two things beyond storing: consumption is atomic (a code or refresh token used twice at
 * once: the loser finds it consumed, its grant is revoked as for any reuse, and it gets invalid_grant), and
 * grants are indexed by account so the API and apps page can list them.
 */
export function storeAdapter(store: OAuthStore, clock: Clock): AdapterClass {
  return class StoreAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const grantId = payload.grantId ?? (this.model === 'Grant' ? id : null);
      const account = payload.accountId ?? null;
      const { jti, ...rest } = payload;
      await store.upsert(this.model, artifactKey(id), {
        payload: KEEPS_ID.has(this.model) ? { ...rest, jti } : rest,
        grantId,
        accountId: account !== null && /^\d{1,15}$/.test(account) ? Number(account) : null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(clock().getTime() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const found = await store.find(this.model, artifactKey(id));
      if (!found) return undefined;
      const payload = KEEPS_ID.has(this.model) ? found.payload : { ...found.payload, jti: id };
      return found.consumedAt ? { ...payload, consumed: Math.floor(found.consumedAt.getTime() / 1000) } : payload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await store.findByUid(this.model, uid))?.payload;
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined; // no device flow
    }

    async consume(id: string): Promise<void> {
      const key = artifactKey(id);
      if (await store.consume(this.model, key, clock())) return;
      const grantId = (await store.find(this.model, key))?.payload.grantId;
      if (typeof grantId === 'string') await store.revokeGrant(grantId);
      throw new errors.InvalidGrant(
        `${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`,
      );
    }

    async destroy(id: string): Promise<void> {
      await store.destroy(this.model, artifactKey(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.revokeGrant(grantId);
    }
  };
}
