import type { User } from '../../../core/user.ts';
import type { OAuthAppRecord, OAuthArtifact, OAuthStore } from '../../../db/store/oauth.ts';

interface StoredArtifact extends OAuthArtifact {
  model: string;
  keyHash: string;
  grantId: string | null;
  accountId: number | null;
  uid: string | null;
}

/**
 * Each call gives way to other work once, as a round trip to the database does: requests that arrive together
 * interleave between their store calls (two refreshes with one token both find it before either consumes it).
 */
const roundTrip = (): Promise<void> => new Promise((done) => setImmediate(done));

/** Payloads go through JSON as they do through a jsonb column: what is read back is a copy, never the object written. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * The OAuth store (db/store/oauth.ts) in memory, for the unit lane's protocol tests: the real adapter
 * (oauth/adapter.ts storeAdapter) and the real token verifier (oauth/access-tokens.ts) run over it. It keeps
 * the Postgres store's semantics where the protocol depends on them: `consume` marks an artifact once (of
 * two racing consumers one wins, as the conditional UPDATE does), `revokeGrant` removes the grant, everything
 * issued under it and its app, `find` returns rows past their expiry as the table does (oidc-provider checks
 * expiry itself), and an access token is found with its owner. The Postgres store itself is tested end to end
 * in test/oauth/oauth-flow.test.ts.
 */
export class MemoryOAuthStore implements OAuthStore {
  readonly artifacts = new Map<string, StoredArtifact>();
  readonly apps = new Map<string, OAuthAppRecord>();
  readonly registrations: Array<{ ip: string; at: Date }> = [];
  /** The accounts access tokens are joined with (the users table). */
  readonly users = new Map<number, User>();

  private static key = (model: string, keyHash: string) => `${model}\u0000${keyHash}`;

  private read(row: StoredArtifact | undefined): OAuthArtifact | undefined {
    return row && { payload: copy(row.payload), expiresAt: row.expiresAt, consumedAt: row.consumedAt };
  }

  async upsert(model: string, keyHash: string, artifact: Parameters<OAuthStore['upsert']>[2]): Promise<void> {
    await roundTrip();
    const key = MemoryOAuthStore.key(model, keyHash);
    this.artifacts.set(key, {
      model,
      keyHash,
      payload: copy(artifact.payload),
      grantId: artifact.grantId,
      accountId: artifact.accountId,
      uid: artifact.uid,
      expiresAt: artifact.expiresAt,
      consumedAt: this.artifacts.get(key)?.consumedAt ?? null,
    });
  }

  async find(model: string, keyHash: string): Promise<OAuthArtifact | undefined> {
    await roundTrip();
    return this.read(this.artifacts.get(MemoryOAuthStore.key(model, keyHash)));
  }

  async findByUid(model: string, uid: string): Promise<OAuthArtifact | undefined> {
    await roundTrip();
    return this.read([...this.artifacts.values()].find((row) => row.model === model && row.uid === uid));
  }

  async consume(model: string, keyHash: string, at: Date): Promise<boolean> {
    await roundTrip();
    const row = this.artifacts.get(MemoryOAuthStore.key(model, keyHash));
    if (!row || row.consumedAt) return false;
    row.consumedAt = at;
    return true;
  }

  async destroy(model: string, keyHash: string): Promise<void> {
    await roundTrip();
    this.artifacts.delete(MemoryOAuthStore.key(model, keyHash));
  }

  async revokeGrant(grantId: string): Promise<void> {
    await roundTrip();
    for (const [key, row] of this.artifacts) if (row.grantId === grantId) this.artifacts.delete(key);
    this.apps.delete(grantId);
  }

  async findAccessToken(keyHash: string): Promise<Awaited<ReturnType<OAuthStore['findAccessToken']>>> {
    await roundTrip();
    const row = this.artifacts.get(MemoryOAuthStore.key('AccessToken', keyHash));
    const user = row && row.accountId !== null ? this.users.get(row.accountId) : undefined;
    return row && user && { payload: copy(row.payload), expiresAt: row.expiresAt, user: { ...user } };
  }

  async deleteExpiredBefore(before: Date): Promise<number> {
    await roundTrip();
    let deleted = 0;
    for (const [key, row] of this.artifacts)
      if (row.expiresAt && row.expiresAt < before) deleted += Number(this.artifacts.delete(key));
    for (const grantId of this.apps.keys())
      if (!this.grantExists(grantId)) deleted += Number(this.apps.delete(grantId));
    return deleted;
  }

  private grantExists(grantId: string): boolean {
    return [...this.artifacts.values()].some((row) => row.model === 'Grant' && row.grantId === grantId);
  }

  async recordApp(app: Omit<OAuthAppRecord, 'lastUsedAt'>): Promise<void> {
    await roundTrip();
    this.apps.set(app.grantId, {
      ...app,
      scopes: [...app.scopes],
      lastUsedAt: this.apps.get(app.grantId)?.lastUsedAt ?? null,
    });
  }

  async listApps(userId: number): Promise<OAuthAppRecord[]> {
    await roundTrip();
    return [...this.apps.values()]
      .filter((app) => app.userId === userId && this.grantExists(app.grantId))
      .sort(
        (a, b) =>
          b.authorisedAt.getTime() - a.authorisedAt.getTime() ||
          (a.grantId < b.grantId ? -1 : a.grantId > b.grantId ? 1 : 0),
      )
      .map((app) => ({ ...app }));
  }

  async findApp(grantId: string): Promise<OAuthAppRecord | undefined> {
    await roundTrip();
    const app = this.apps.get(grantId);
    return app && { ...app };
  }

  async touchApp(grantId: string, now: Date, unlessUsedAfter: Date): Promise<void> {
    await roundTrip();
    const app = this.apps.get(grantId);
    if (app && (app.lastUsedAt === null || app.lastUsedAt < unlessUsedAfter)) app.lastUsedAt = now;
  }

  async recordRegistration(ip: string, at: Date): Promise<void> {
    await roundTrip();
    this.registrations.push({ ip, at });
  }

  async registrationTimes(ip: string, since: Date, limit: number): Promise<Date[]> {
    await roundTrip();
    return this.registrations
      .filter((r) => r.ip === ip && r.at > since)
      .map((r) => r.at)
      .sort((a, b) => b.getTime() - a.getTime())
      .slice(0, limit);
  }

  async deleteRegistrationsBefore(before: Date): Promise<void> {
    await roundTrip();
    for (let i = this.registrations.length - 1; i >= 0; i--)
      if (this.registrations[i]!.at < before) this.registrations.splice(i, 1);
  }
}
