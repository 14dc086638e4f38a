import type { Knex } from 'knex';
import type { User } from '../../core/user.ts';
import { preparedQuery } from '../prepared.ts';
import { toUser } from './users.ts';

/** One stored oidc-provider artifact (its id only as a hash: see the 015 migration). */
export interface OAuthArtifact {
  payload: Record<string, unknown>;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

/** An authorised app as the API and apps page lists it (one per grant). */
export interface OAuthAppRecord {
  grantId: string;
  userId: number;
  clientId: string;
  name: string;
  clientIdHost: string;
  verified: boolean;
  scopes: string[];
  authorisedAt: Date;
  lastUsedAt: Date | null;
}

/** An access token found by its hash, with its owner, for the API's authentication seam. */
export interface AccessTokenWithOwner {
  payload: Record<string, unknown>;
  expiresAt: Date | null;
  user: User;
}

export interface OAuthStore {
  upsert(
    model: string,
    keyHash: string,
    artifact: {
      payload: Record<string, unknown>;
      grantId: string | null;
      accountId: number | null;
      uid: string | null;
      expiresAt: Date | null;
    },
  ): Promise<void>;
  find(model: string, keyHash: string): Promise<OAuthArtifact | undefined>;
  findByUid(model: string, uid: string): Promise<OAuthArtifact | undefined>;
  /** Marks an artifact consumed; false when it already was (or is gone): of two racing consumers, one wins. */
  consume(model: string, keyHash: string, at: Date): Promise<boolean>;
  destroy(model: string, keyHash: string): Promise<void>;
  /** Deletes a grant, everything issued under it and its app row, in one transaction. */
  revokeGrant(grantId: string): Promise<void>;
  /** One prepared statement: token and owner in one round trip, as for personal tokens. */
  findAccessToken(keyHash: string): Promise<AccessTokenWithOwner | undefined>;
  /** Deletes artifacts that expired before `before`, and the app rows whose grant is gone; the number of rows deleted. */
  deleteExpiredBefore(before: Date): Promise<number>;

  recordApp(app: Omit<OAuthAppRecord, 'lastUsedAt'>): Promise<void>;
  /** The user's authorised apps whose grant still exists, newest first. */
  listApps(userId: number): Promise<OAuthAppRecord[]>;
  findApp(grantId: string): Promise<OAuthAppRecord | undefined>;
  /** Records a use unless one was recorded after `unlessUsedAfter`. */
  touchApp(grantId: string, now: Date, unlessUsedAfter: Date): Promise<void>;

  recordRegistration(ip: string, at: Date): Promise<void>;
  registrationTimes(ip: string, since: Date, limit: number): Promise<Date[]>;
  deleteRegistrationsBefore(before: Date): Promise<void>;
}

interface ArtifactRow {
  payload: Record<string, unknown>;
  expires_at: Date | null;
  consumed_at: Date | null;
}

interface AppRow {
  grant_id: string;
  user_id: number;
  client_id: string;
  name: string;
  client_host: string;
  verified: boolean;
  scopes: string[];
  authorised_at: Date;
  last_used_at: Date | null;
}

const toArtifact = (row: ArtifactRow): OAuthArtifact => ({
  payload: row.payload,
  expiresAt: row.expires_at,
  consumedAt: row.consumed_at,
});

const toApp = (row: AppRow): OAuthAppRecord => ({
  grantId: row.grant_id,
  userId: Number(row.user_id),
  clientId: row.client_id,
  name: row.name,
  clientIdHost: row.client_host,
  verified: row.verified,
  scopes: row.scopes,
  authorisedAt: row.authorised_at,
  lastUsedAt: row.last_used_at,
});

const ACCESS_TOKEN_WITH_OWNER = `select a.payload, a.expires_at as token_expires_at, u.id, u.name, u.email, u.plan, u.created_at, u.updated_at
  from oauth_artifacts a join users u on u.id = a.account_id where a.model = 'AccessToken' and a.key_hash = $1`;

type OwnerRow = Parameters<typeof toUser>[0] & { payload: Record<string, unknown>; token_expires_at: Date | null };

/** Every query on the OAuth tables. */
export function createOAuthStore(knex: Knex): OAuthStore {
  const artifacts = () => knex('oauth_artifacts');
  const apps = () => knex('oauth_apps');
  return {
    async upsert(model, keyHash, artifact) {
      await artifacts()
        .insert({
          model,
          key_hash: keyHash,
          payload: artifact.payload,
          grant_id: artifact.grantId,
          account_id: artifact.accountId,
          uid: artifact.uid,
          expires_at: artifact.expiresAt,
        })
        .onConflict(['model', 'key_hash'])
        .merge(['payload', 'grant_id', 'account_id', 'uid', 'expires_at']);
    },

    async find(model, keyHash) {
      const row = (await artifacts()
        .where({ model, key_hash: keyHash })
        .first('payload', 'expires_at', 'consumed_at')) as ArtifactRow | undefined;
      return row && toArtifact(row);
    },

    async findByUid(model, uid) {
      const row = (await artifacts().where({ model, uid }).first('payload', 'expires_at', 'consumed_at')) as
        ArtifactRow | undefined;
      return row && toArtifact(row);
    },

    async consume(model, keyHash, at) {
      return (
        (await artifacts().where({ model, key_hash: keyHash }).whereNull('consumed_at').update({ consumed_at: at })) > 0
      );
    },

    async destroy(model, keyHash) {
      await artifacts().where({ model, key_hash: keyHash }).delete();
    },

    async revokeGrant(grantId) {
      await knex.transaction(async (trx) => {
        await trx('oauth_artifacts').where({ grant_id: grantId }).delete();
        await trx('oauth_apps').where({ grant_id: grantId }).delete();
      });
    },

    async findAccessToken(keyHash) {
      const [row] = await preparedQuery<OwnerRow>(knex, 'oauth-access-token', ACCESS_TOKEN_WITH_OWNER, [keyHash]);
      return row && { payload: row.payload, expiresAt: row.token_expires_at, user: toUser(row) };
    },

    async deleteExpiredBefore(before) {
      const expired = await artifacts().where('expires_at', '<', before).delete();
      const orphaned = await apps()
        .whereNotExists((q) =>
          q
            .select(knex.raw('1'))
            .from('oauth_artifacts')
            .where('model', 'Grant')
            .whereRaw('oauth_artifacts.grant_id = oauth_apps.grant_id'),
        )
        .delete();
      return expired + orphaned;
    },

    async recordApp(app) {
      await apps()
        .insert({
          grant_id: app.grantId,
          user_id: app.userId,
          client_id: app.clientId,
          name: app.name,
          client_host: app.clientIdHost,
          verified: app.verified,
          scopes: app.scopes,
          authorised_at: app.authorisedAt,
        })
        .onConflict('grant_id')
        .merge(['name', 'client_host', 'verified', 'scopes', 'authorised_at']);
    },

    async listApps(userId) {
      const rows = (await apps()
        .where({ user_id: userId })
        .whereExists((q) =>
          q
            .select(knex.raw('1'))
            .from('oauth_artifacts')
            .where('model', 'Grant')
            .whereRaw('oauth_artifacts.grant_id = oauth_apps.grant_id'),
        )
        .orderBy('authorised_at', 'desc')
        .orderBy('grant_id')) as AppRow[];
      return rows.map(toApp);
    },

    async findApp(grantId) {
      const row = (await apps().where({ grant_id: grantId }).first()) as AppRow | undefined;
      return row && toApp(row);
    },

    async touchApp(grantId, now, unlessUsedAfter) {
      await apps()
        .where({ grant_id: grantId })
        .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', unlessUsedAfter))
        .update({ last_used_at: now });
    },

    async recordRegistration(ip, at) {
      await knex('oauth_registration_attempts').insert({ ip, attempted_at: at });
    },

    async registrationTimes(ip, since, limit) {
      const rows = (await knex('oauth_registration_attempts')
        .where({ ip })
        .where('attempted_at', '>', since)
        .orderBy('attempted_at', 'desc')
        .limit(limit)
        .select('attempted_at')) as Array<{ attempted_at: Date }>;
      return rows.map((row) => row.attempted_at);
    },

    async deleteRegistrationsBefore(before) {
      await knex('oauth_registration_attempts').where('attempted_at', '<', before).delete();
    },
  };
}
