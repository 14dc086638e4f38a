import type { Knex } from 'knex';
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
      return { items: rows.map((row) => toSite(row as RumSiteRow)), meta: pageMeta(page, Number(counted[0]?.count ?? 0)) };
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
      const rows = await sites().whereIn('id', [...ids]).orderBy('id', 'asc');
      return rows.map((row) => toSite(row as RumSiteRow));
    },

    async countAlerts(siteId) {
      const [counted] = await knex('rum_alerts').where({ site_id: siteId }).count<Array<{ count: number }>>('* as count');
      return Number(counted?.count ?? 0);
    },
  };
}
