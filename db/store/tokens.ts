import type { Knex } from 'knex';
import type { ApiToken } from '../../core/api-token.ts';
import type { User } from '../../core/user.ts';
import { preparedQuery } from '../prepared.ts';
import { toUser } from './users.ts';

export type TokenPurpose = 'personal' | 'docs';

interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  prefix: string;
  token_hash: string;
  purpose: TokenPurpose;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

const toToken = (row: TokenRow): ApiToken => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  prefix: row.prefix,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  createdAt: row.created_at,
});

/** A token found by its hash, with its owner. */
export interface TokenWithOwner {
  tokenId: number;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  user: User;
}

export interface TokenStore {
  insert(token: {
    userId: number;
    name: string;
    prefix: string;
    hash: string;
    expiresAt: Date | null;
    /** `docs`: a one-hour token of the API reference page, kept out of the user's list. */
    purpose?: TokenPurpose;
  }): Promise<ApiToken>;
  /** The user's personal tokens (not the API reference's), newest first. */
  listForUser(userId: number): Promise<ApiToken[]>;
  /** False when the user has no such token. */
  deleteOwned(userId: number, tokenId: number): Promise<boolean>;
  deleteNamed(userId: number, name: string): Promise<void>;
  /** Removes the user's API reference tokens that expired by `now`. */
  deleteExpiredDocs(userId: number, now: Date): Promise<void>;
  /** One prepared statement: the authenticated API path reads token and user in a single round trip. */
  findWithOwner(hash: string): Promise<TokenWithOwner | undefined>;
  /** Records a use unless one was recorded after `unlessUsedAfter`. */
  touch(tokenId: number, now: Date, unlessUsedAfter: Date): Promise<void>;
}

const OWNER_OF_TOKEN = `select u.id, u.name, u.email, u.plan, u.created_at, u.updated_at, t.id as token_id, t.expires_at as token_expires_at, t.last_used_at as token_last_used_at
  from api_tokens t join users u on u.id = t.user_id where t.token_hash = $1`;

interface OwnerRow {
  id: number;
  name: string;
  email: string;
  plan: User['plan'];
  token_id: number;
  token_expires_at: Date | null;
  token_last_used_at: Date | null;
}

/** Every query on `api_tokens`. */
export function createTokenStore(knex: Knex): TokenStore {
  const tokens = () => knex<TokenRow>('api_tokens');
  return {
    async insert(token) {
      const [row] = await tokens()
        .insert({
          user_id: token.userId,
          name: token.name,
          prefix: token.prefix,
          token_hash: token.hash,
          expires_at: token.expiresAt,
          purpose: token.purpose ?? 'personal',
        })
        .returning('*');
      return toToken(row as TokenRow);
    },

    async listForUser(userId) {
      const rows = await tokens()
        .where({ user_id: userId, purpose: 'personal' })
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc');
      return rows.map((row) => toToken(row as TokenRow));
    },

    async deleteOwned(userId, tokenId) {
      return (await tokens().where({ id: tokenId, user_id: userId }).delete()) > 0;
    },

    async deleteNamed(userId, name) {
      await tokens().where({ user_id: userId, name }).delete();
    },

    async deleteExpiredDocs(userId, now) {
      await tokens().where({ user_id: userId, purpose: 'docs' }).where('expires_at', '<=', now).delete();
    },

    // Named columns, not `u.*`: a prepared plan must keep its result shape when a migration adds a column.
    async findWithOwner(hash) {
      const [row] = await preparedQuery<OwnerRow>(knex, 'owner-of-token', OWNER_OF_TOKEN, [hash]);
      return (
        row && {
          tokenId: row.token_id,
          expiresAt: row.token_expires_at,
          lastUsedAt: row.token_last_used_at,
          user: toUser(row),
        }
      );
    },

    async touch(tokenId, now, unlessUsedAfter) {
      await tokens()
        .where({ id: tokenId })
        .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', unlessUsedAfter))
        .update({ last_used_at: now });
    },
  };
}
