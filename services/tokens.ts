import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiToken } from '../db/models/ApiToken.ts';
import { User } from '../db/models/User.ts';
import { preparedQuery } from '../db/prepared.ts';

/**
 * Personal API tokens. The value is shown once; only its SHA-256 is stored (the value has 240 bits of
 * randomness, so a fast hash is enough) together with a short prefix for display.
 */

export const TOKEN_PREFIX = 'wpt_';
const TOKEN_PATTERN = /^wpt_[A-Za-z0-9_-]{40}$/;
/** last_used_at is written at most this often per token, so busy clients do not turn reads into writes. */
const LAST_USED_GRANULARITY_MS = 60_000;

export const hashToken = (value: string): string => createHash('sha256').update(value).digest('hex');

export interface MintedToken {
  token: string;
  record: ApiToken;
}

export async function mintToken(knex: Knex, userId: number, name: string, expiresAt: Date | null): Promise<MintedToken> {
  const token = TOKEN_PREFIX + randomBytes(30).toString('base64url');
  const record = await ApiToken.query(knex).insertAndFetch({
    user_id: userId,
    name,
    prefix: token.slice(0, TOKEN_PREFIX.length + 8),
    token_hash: hashToken(token),
    expires_at: expiresAt,
  });
  return { token, record };
}

export async function listTokens(knex: Knex, userId: number): Promise<ApiToken[]> {
  return ApiToken.query(knex).where({ user_id: userId }).orderBy('created_at', 'desc').orderBy('id', 'desc');
}

/** Deleting revokes at once: the next request with that token finds no row. Another user's token: false. */
export async function deleteToken(knex: Knex, userId: number, tokenId: number): Promise<boolean> {
  return (await ApiToken.query(knex).delete().where({ id: tokenId, user_id: userId })) > 0;
}

export interface TokenOwner {
  tokenId: number;
  user: User;
}

const OWNER_OF_TOKEN = `select u.id, u.name, u.email, u.plan, u.created_at, u.updated_at, t.id as token_id, t.expires_at as token_expires_at, t.last_used_at as token_last_used_at
  from api_tokens t join users u on u.id = t.user_id where t.token_hash = $1`;

/**
 * The owner of a valid, unexpired personal token, or null. Token and user come back in one prepared query
 * (named columns, not `u.*`: a prepared plan must keep its result shape when a migration adds a column),
 * so an authenticated API call costs two round trips in all: this one and the daily counter.
 */
export async function verifyPersonalToken(knex: Knex, value: string, now: Date): Promise<TokenOwner | null> {
  if (!TOKEN_PATTERN.test(value)) return null;
  const [row] = await preparedQuery<Record<string, unknown> & TokenColumns>(knex, 'owner-of-token', OWNER_OF_TOKEN, [hashToken(value)]);
  if (!row) return null;
  const { token_id: tokenId, token_expires_at: expiresAt, token_last_used_at: lastUsedAt, ...user } = row;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) return null;
  if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) {
    await ApiToken.query(knex)
      .patch({ last_used_at: now })
      .where({ id: tokenId })
      .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now.getTime() - LAST_USED_GRANULARITY_MS)));
  }
  return { tokenId, user: User.fromJson(user, { skipValidation: true }) };
}

interface TokenColumns {
  token_id: number;
  token_expires_at: Date | null;
  token_last_used_at: Date | null;
}
