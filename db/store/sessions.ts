import type { Knex } from 'knex';
import type { User } from '../../core/user.ts';
import { toUser, type UserRow } from './users.ts';

export interface SessionStore {
  create(idHash: string, userId: number, expiresAt: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** The user of a session that has not expired at `now`, and whether their address is verified. */
  findLiveUser(idHash: string, now: Date): Promise<(User & { emailVerified: boolean }) | undefined>;
  /** Ends every web session of the user (a password reset); API tokens and OAuth grants are not sessions. */
  deleteForUser(userId: number): Promise<number>;
}

/** Every query on `web_sessions` (keyed by the SHA-256 of the cookie value, never the value itself). */
export function createSessionStore(knex: Knex): SessionStore {
  const sessions = () => knex('web_sessions');
  return {
    async create(idHash, userId, expiresAt) {
      await sessions().insert({ id_hash: idHash, user_id: userId, expires_at: expiresAt });
    },

    async delete(idHash) {
      await sessions().where({ id_hash: idHash }).delete();
    },

    async findLiveUser(idHash, now) {
      const row = await sessions()
        .join('users', 'users.id', 'web_sessions.user_id')
        .where({ 'web_sessions.id_hash': idHash })
        .where('web_sessions.expires_at', '>', now)
        .first<Pick<UserRow, 'id' | 'name' | 'email' | 'plan' | 'email_verified_at'> | undefined>(
          'users.id',
          'users.name',
          'users.email',
          'users.plan',
          'users.email_verified_at',
        );
      return row && { ...toUser(row), emailVerified: row.email_verified_at !== null };
    },

    async deleteForUser(userId) {
      return sessions().where({ user_id: userId }).delete();
    },
  };
}
