import { createHash, randomBytes } from 'node:crypto';
import type { ApiToken } from '../core/api-token.ts';
import type { User } from '../core/user.ts';
import type { TokenPurpose, TokenStore } from '../db/store/tokens.ts';

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

export async function mintToken(
  tokens: TokenStore,
  userId: number,
  name: string,
  expiresAt: Date | null,
  purpose: TokenPurpose = 'personal',
): Promise<MintedToken> {
  const token = TOKEN_PREFIX + randomBytes(30).toString('base64url');
  const record = await tokens.insert({
    userId,
    name,
    prefix: token.slice(0, TOKEN_PREFIX.length + 8),
    hash: hashToken(token),
    expiresAt,
    purpose,
  });
  return { token, record };
}

export async function listTokens(tokens: TokenStore, userId: number): Promise<ApiToken[]> {
  return tokens.listForUser(userId);
}

/** Deleting revokes at once: the next request with that token finds no row. Another user's token: false. */
export async function deleteToken(tokens: TokenStore, userId: number, tokenId: number): Promise<boolean> {
  return tokens.deleteOwned(userId, tokenId);
}

export interface TokenOwner {
  tokenId: number;
  user: User;
}

/**
 * The owner of a valid, unexpired personal token, or null. Token and user come back in one prepared query,
 * so an authenticated API call costs two round trips in all: this one and the daily counter.
 */
export async function verifyPersonalToken(tokens: TokenStore, value: string, now: Date): Promise<TokenOwner | null> {
  if (!TOKEN_PATTERN.test(value)) return null;
  const found = await tokens.findWithOwner(hashToken(value));
  if (!found) return null;
  const { tokenId, expiresAt, lastUsedAt, user } = found;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) return null;
  if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) {
    await tokens.touch(tokenId, now, new Date(now.getTime() - LAST_USED_GRANULARITY_MS));
  }
  return { tokenId, user };
}
