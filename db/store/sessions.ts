import type { Knex } from 'knex';
import type { User } from '../../core/user.ts';
import { toUser, type UserRow } from './users.ts';

/** A live web session as its user sees it in the settings (never its id hash). */
export interface WebSession {
  id: number;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  /** The session of the request that lists them. */
  current: boolean;
}

/** The user of a live session and what the request needs of the session itself. */
export interface LiveSession {
  user: User & { emailVerified: boolean };
  sessionId: number;
  lastSeenAt: Date;
}

export const USER_AGENT_MAX = 200;

export interface SessionStore {
  /** `now`: its creation and first use (the database's clock when not given). */
  create(idHash: string, userId: number, expiresAt: Date, userAgent?: string | null, now?: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** The user of a session that has not expired at `now`, and whether their address is verified. */
  findLiveUser(idHash: string, now: Date): Promise<(User & { emailVerified: boolean }) | undefined>;
  /** Ends every web session of the user (a password reset); API tokens and OAuth grants are not sessions. */
  deleteForUser(userId: number): Promise<number>;
  /** The live session with its user and row id. */
  findLive(idHash: string, now: Date): Promise<LiveSession | undefined>;
  /** Records a use unless one was recorded after `unlessSeenAfter`. */
  touch(sessionId: number, now: Date, unlessSeenAfter: Date): Promise<void>;
  /** The user's live sessions, most recently used first; `currentHash` marks the asking one. */
  listLive(userId: number, now: Date, currentHash: string): Promise<WebSession[]>;
  /** Ends one of the user's sessions by row id; false when the user has no such session. */
  deleteOwned(userId: number, sessionId: number): Promise<boolean>;
  /** Ends every session of the user but `keepHash`; how many. */
  deleteOthers(userId: number, keepHash: string): Promise<number>;
}

/** Every query on `web_sessions` (keyed by the SHA-256 of the cookie value, never the value itself). */
export function createSessionStore(knex: Knex): SessionStore {
  const sessions = () => knex('web_sessions');
  const live = (idHash: string, now: Date) =>
    sessions()
      .join('users', 'users.id', 'web_sessions.user_id')
      .where({ 'web_sessions.id_hash': idHash })
      .where('web_sessions.expires_at', '>', now);
  return {
    async create(idHash, userId, expiresAt, userAgent = null, now) {
      await sessions().insert({
        ...(now ? { created_at: now, last_seen_at: now } : {}),
        id_hash: idHash,
        user_id: userId,
        expires_at: expiresAt,
        user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
      });
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

    async findLive(idHash, now) {
      const row = await live(idHash, now).first<
        | (Pick<UserRow, 'id' | 'name' | 'email' | 'plan' | 'email_verified_at'> & {
            session_id: string;
            last_seen_at: Date;
          })
        | undefined
      >(
        'users.id',
        'users.name',
        'users.email',
        'users.plan',
        'users.email_verified_at',
        'web_sessions.id as session_id',
        'web_sessions.last_seen_at',
      );
      return (
        row && {
          user: { ...toUser(row), emailVerified: row.email_verified_at !== null },
          sessionId: Number(row.session_id),
          lastSeenAt: row.last_seen_at,
        }
      );
    },

    async touch(sessionId, now, unlessSeenAfter) {
      await sessions()
        .where({ id: sessionId })
        .where('last_seen_at', '<', unlessSeenAfter)
        .update({ last_seen_at: now });
    },

    async listLive(userId, now, currentHash) {
      const rows = (await sessions()
        .where({ user_id: userId })
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id', 'desc')
        .select('id', 'id_hash', 'created_at', 'last_seen_at', 'user_agent')) as {
        id: string;
        id_hash: string;
        created_at: Date;
        last_seen_at: Date;
        user_agent: string | null;
      }[];
      return rows.map((row) => ({
        id: Number(row.id),
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        userAgent: row.user_agent,
        current: row.id_hash === currentHash,
      }));
    },

    async deleteOwned(userId, sessionId) {
      return (await sessions().where({ id: sessionId, user_id: userId }).delete()) > 0;
    },

    async deleteOthers(userId, keepHash) {
      return sessions().where({ user_id: userId }).whereNot({ id_hash: keepHash }).delete();
    },
  };
}
