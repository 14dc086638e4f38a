import type { Knex } from 'knex';
import type { Locale } from '../../core/i18n/locale.ts';
import { pageMeta, pageOffset, type Page, type PageQuery } from '../../core/pagination.ts';
import { isPlanKey, type PlanKey } from '../../core/plans.ts';
import type { RumSite } from '../../core/rum/site.ts';

// Targets use 4202, scans 4201: each aggregate has its own owner-lock namespace.
const LOCK_NAMESPACE = 4203;

interface RumSiteRow {
  id: number | string;
  user_id: number | string;
  public_id: string;
  domain: string;
  active: boolean;
  sample_rate: number;
  created_at: Date;
  updated_at: Date;
}

const toSite = (row: RumSiteRow): RumSite => ({
  id: Number(row.id),
  userId: Number(row.user_id),
  publicId: row.public_id,
  domain: row.domain,
  active: row.active,
  sampleRate: row.sample_rate,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const maybeSite = (row: RumSiteRow | undefined): RumSite | undefined => (row ? toSite(row) : undefined);

export interface NewRumSite {
  userId: number;
  publicId: string;
  domain: string;
  sampleRate: number;
  createdAt: Date;
}

export interface RumSiteChanges {
  active?: boolean;
  sampleRate?: number;
}

/** What the ingest service needs to accept a beacon: the site and its owner's plan (for the monthly limit). */
export interface IngestSite extends RumSite {
  ownerPlan: PlanKey;
}

/** Whom to tell that a site reached its monthly limit. */
export interface LimitNoticeRecipient {
  email: string;
  name: string;
  locale: Locale;
  domain: string;
  reachedAt: Date;
}

export interface RumSiteStore {
  /** Runs `work` in one transaction holding the owner's site lock (the plan's count, duplicate domains). */
  underOwnerLock<T>(userId: number, work: (locked: RumSiteStore) => Promise<T>): Promise<T>;
  findOwned(userId: number, id: number): Promise<RumSite | undefined>;
  findOwnedByDomain(userId: number, domain: string): Promise<RumSite | undefined>;
  /** The owner's sites, oldest first. */
  listOwned(userId: number, page: PageQuery): Promise<Page<RumSite>>;
  countOwned(userId: number): Promise<number>;
  insert(site: NewRumSite): Promise<RumSite>;
  update(userId: number, id: number, changes: RumSiteChanges, now: Date): Promise<RumSite | undefined>;
  delete(userId: number, id: number): Promise<boolean>;
  /** By the snippet's public id, with the owner's plan (the ingest service's lookup). */
  findForIngest(publicId: string): Promise<IngestSite | undefined>;
  /** Sites by numeric id (the alert check and the dashboard join ClickHouse results back to them). */
  findMany(ids: readonly number[]): Promise<RumSite[]>;
  /** How many live-data alert configurations the site has (the API's site detail). */
  countAlerts(siteId: number): Promise<number>;
  /** Notes that the site reached its limit in `month` (YYYY-MM); the first note of the month keeps its time. */
  recordLimitReached(siteId: number, month: string, at: Date): Promise<void>;
  /**
   * Takes the month's e-mail until `leaseUntil` when nobody sent it and no live lease holds it; the recipient
   * when taken, else undefined (sent already, or another instance is sending).
   */
  claimLimitEmail(siteId: number, month: string, at: Date, leaseUntil: Date): Promise<LimitNoticeRecipient | undefined>;
  /** The e-mail went out (`at`), or, with null, the lease is given back after a failed send. */
  finishLimitEmail(siteId: number, month: string, at: Date | null): Promise<void>;
  /** When each site reached its limit in `month`; sites that have not are absent. */
  limitReachedAt(siteIds: readonly number[], month: string): Promise<Map<number, Date>>;
}

/** Every query on `rum_sites`. */
export function createRumSiteStore(knex: Knex | Knex.Transaction): RumSiteStore {
  const sites = () => knex<RumSiteRow>('rum_sites');
  return {
    async underOwnerLock<T>(userId: number, work: (locked: RumSiteStore) => Promise<T>): Promise<T> {
      return knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, userId]);
        return work(createRumSiteStore(trx));
      });
    },

    async findOwned(userId, id) {
      return maybeSite((await sites().where({ id, user_id: userId }).first()) as RumSiteRow | undefined);
    },

    async findOwnedByDomain(userId, domain) {
      return maybeSite((await sites().where({ user_id: userId, domain }).first()) as RumSiteRow | undefined);
    },

    async listOwned(userId, page) {
      const query = sites().where({ user_id: userId });
      const [counted, rows] = await Promise.all([
        query.clone().count<Array<{ count: number }>>('* as count'),
        query.clone().orderBy('id', 'asc').limit(page.limit).offset(pageOffset(page)),
      ]);
      return {
        items: rows.map((row) => toSite(row as RumSiteRow)),
        meta: pageMeta(page, Number(counted[0]?.count ?? 0)),
      };
    },

    async countOwned(userId) {
      const [counted] = await sites().where({ user_id: userId }).count<Array<{ count: number }>>('* as count');
      return Number(counted?.count ?? 0);
    },

    async insert(site) {
      const [row] = await sites()
        .insert({
          user_id: site.userId,
          public_id: site.publicId,
          domain: site.domain,
          active: true,
          sample_rate: site.sampleRate,
          created_at: site.createdAt,
          updated_at: site.createdAt,
        })
        .returning('*');
      return toSite(row as RumSiteRow);
    },

    async update(userId, id, changes, now) {
      const values: Partial<RumSiteRow> = { updated_at: now };
      if (changes.active !== undefined) values.active = changes.active;
      if (changes.sampleRate !== undefined) values.sample_rate = changes.sampleRate;
      const [row] = await sites().where({ id, user_id: userId }).update(values).returning('*');
      return maybeSite(row as RumSiteRow | undefined);
    },

    async delete(userId, id) {
      return (await sites().where({ id, user_id: userId }).delete()) > 0;
    },

    async findForIngest(publicId) {
      const row = (await sites()
        .join('users', 'users.id', 'rum_sites.user_id')
        .where('rum_sites.public_id', publicId)
        .first('rum_sites.*', 'users.plan as owner_plan')) as (RumSiteRow & { owner_plan: string }) | undefined;
      if (!row) return undefined;
      if (!isPlanKey(row.owner_plan)) throw new Error(`unknown plan ${row.owner_plan}`);
      return { ...toSite(row), ownerPlan: row.owner_plan };
    },

    async findMany(ids) {
      if (ids.length === 0) return [];
      const rows = await sites()
        .whereIn('id', [...ids])
        .orderBy('id', 'asc');
      return rows.map((row) => toSite(row as RumSiteRow));
    },

    async countAlerts(siteId) {
      const [counted] = await knex('rum_alerts')
        .where({ site_id: siteId })
        .count<Array<{ count: number }>>('* as count');
      return Number(counted?.count ?? 0);
    },

    async recordLimitReached(siteId, month, at) {
      await knex('rum_limit_notices')
        .insert({ site_id: siteId, month, reached_at: at })
        .onConflict(['site_id', 'month'])
        .ignore();
    },

    async claimLimitEmail(siteId, month, at, leaseUntil) {
      const claimed = (await knex('rum_limit_notices')
        .where({ site_id: siteId, month })
        .whereNull('emailed_at')
        .andWhere((q) => q.whereNull('email_claimed_until').orWhere('email_claimed_until', '<', at))
        .update({ email_claimed_until: leaseUntil })
        .returning(['reached_at'])) as Array<{ reached_at: Date }>;
      if (claimed.length === 0) return undefined;
      const row = (await knex('rum_sites')
        .join('users', 'users.id', 'rum_sites.user_id')
        .where('rum_sites.id', siteId)
        .first('users.email', 'users.name', 'users.locale', 'rum_sites.domain')) as
        { email: string; name: string; locale: Locale | null; domain: string } | undefined;
      return row ? { ...row, locale: row.locale ?? 'en', reachedAt: claimed[0]!.reached_at } : undefined;
    },

    async finishLimitEmail(siteId, month, at) {
      await knex('rum_limit_notices')
        .where({ site_id: siteId, month })
        .update(at ? { emailed_at: at } : { email_claimed_until: null });
    },

    async limitReachedAt(siteIds, month) {
      const reached = new Map<number, Date>();
      if (siteIds.length === 0) return reached;
      const rows = (await knex('rum_limit_notices')
        .whereIn('site_id', [...siteIds])
        .andWhere({ month })
        .select('site_id', 'reached_at')) as Array<{ site_id: number | string; reached_at: Date }>;
      for (const row of rows) reached.set(Number(row.site_id), row.reached_at);
      return reached;
    },
  };
}
