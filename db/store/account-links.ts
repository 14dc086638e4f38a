import type { Knex } from 'knex';
import type { AccountLinkPurpose } from '../../core/account/links.ts';

export type { AccountLinkPurpose };

export interface AccountLink {
  userId: number;
  purpose: AccountLinkPurpose;
  /** The address an e-mail change moves to. */
  newEmail: string | null;
}

/** A live link as found by its token: also when it was made. */
export type FoundLink = AccountLink & { createdAt: Date };

export interface AccountLinkStore {
  create(link: AccountLink & { tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void>;
  /** The link when it is unused and not expired at `now`, without using it. */
  peek(tokenHash: string, purpose: AccountLinkPurpose, now: Date): Promise<FoundLink | undefined>;
  /** Marks the link used and returns it, when it was unused and not expired at `now` (one caller wins). */
  use(tokenHash: string, purpose: AccountLinkPurpose, now: Date): Promise<FoundLink | undefined>;
  /** Marks every live link of the user with one of `purposes` used; how many there were. */
  endForUser(userId: number, purposes: readonly AccountLinkPurpose[], now: Date): Promise<number>;
  deleteExpiredBefore(before: Date): Promise<void>;

  /** The account-mail throttle's counter: records a request under `key`; its id. */
  recordRequest(key: string, at: Date): Promise<number>;
  deleteRequest(id: number): Promise<void>;
  /** When the key's requests after `since` happened, newest first, at most `limit`. */
  requestTimes(key: string, since: Date, limit: number): Promise<Date[]>;
  deleteRequestsBefore(before: Date): Promise<void>;
}

interface LinkRow {
  user_id: string | number;
  purpose: AccountLinkPurpose;
  new_email: string | null;
  created_at: Date;
}

const COLUMNS = ['user_id', 'purpose', 'new_email', 'created_at'];

const toLink = (row: LinkRow): FoundLink => ({
  userId: Number(row.user_id),
  purpose: row.purpose,
  newEmail: row.new_email,
  createdAt: row.created_at,
});

/** Every query on `account_links` (keyed by the SHA-256 of the link's token) and `account_mail_requests`. */
export function createAccountLinkStore(knex: Knex): AccountLinkStore {
  const links = () => knex('account_links');
  const requests = () => knex('account_mail_requests');
  const live = (tokenHash: string, purpose: AccountLinkPurpose, now: Date) =>
    links().where({ token_hash: tokenHash, purpose }).whereNull('used_at').where('expires_at', '>', now);
  return {
    async create(link) {
      await links().insert({
        user_id: link.userId,
        purpose: link.purpose,
        new_email: link.newEmail,
        token_hash: link.tokenHash,
        created_at: link.createdAt,
        expires_at: link.expiresAt,
      });
    },

    async peek(tokenHash, purpose, now) {
      const row = (await live(tokenHash, purpose, now).first(COLUMNS)) as LinkRow | undefined;
      return row && toLink(row);
    },

    async use(tokenHash, purpose, now) {
      const [row] = (await live(tokenHash, purpose, now).update({ used_at: now }).returning(COLUMNS)) as LinkRow[];
      return row && toLink(row);
    },

    async endForUser(userId, purposes, now) {
      return links()
        .where({ user_id: userId })
        .whereIn('purpose', [...purposes])
        .whereNull('used_at')
        .where('expires_at', '>', now)
        .update({ used_at: now });
    },

    async deleteExpiredBefore(before) {
      await links().where('expires_at', '<', before).delete();
    },

    async recordRequest(key, at) {
      const [row] = await requests().insert({ key, requested_at: at }).returning<Array<{ id: number }>>('id');
      return row!.id;
    },

    async deleteRequest(id) {
      await requests().where({ id }).delete();
    },

    async requestTimes(key, since, limit) {
      const rows = await requests()
        .where({ key })
        .where('requested_at', '>', since)
        .orderBy([
          { column: 'requested_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .select<Array<{ requested_at: Date }>>('requested_at');
      return rows.map((row) => row.requested_at);
    },

    async deleteRequestsBefore(before) {
      await requests().where('requested_at', '<', before).delete();
    },
  };
}
