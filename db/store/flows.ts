import type { FlowBudgets } from '../../core/flows/flow-budgets.ts';
import type { Knex } from 'knex';
import { pageMeta, pageOffset, type Page, type PageQuery } from '../../core/pagination.ts';
import type { FlowStep } from '../../core/flows/flow.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import { createFlowRunStore, type FlowRunStore } from './flow-runs.ts';
import { createFlowSecretStore, type FlowSecretStore } from './flow-secrets.ts';
import { countMonitoredTargets, TARGET_LOCK_NAMESPACE } from './targets.ts';

export type {
  FlowHistoryRow,
  FlowRun,
  FlowRunError,
  FlowRunOutbox,
  FlowRunStatus,
  FlowRunTrigger,
  NewFlowRun,
  StoredFlowFailure,
} from './flow-runs.ts';
export type { FlowSecretInfo } from './flow-secrets.ts';

// Scans use 4201, targets 4202; flows have their own so that none waits for another.
const LOCK_NAMESPACE = 4203;

export interface Flow {
  id: number;
  publicId: string;
  userId: number;
  name: string;
  formFactor: FormFactor;
  steps: FlowStep[];
  /** Run daily by a Temporal Schedule of its own (core/monitoring/schedule.ts); counts as a monitored target. */
  monitored: boolean;
  /** Step budgets (core/flows/flow-budgets.ts); `{}`: none. */
  budgets: FlowBudgets;
  createdAt: Date;
  updatedAt: Date;
}

interface FlowRow {
  id: number;
  public_id: string;
  user_id: number;
  name: string;
  form_factor: FormFactor;
  steps: FlowStep[];
  monitored: boolean;
  budgets: FlowBudgets | null;
  created_at: Date;
  updated_at: Date;
}

const toFlow = (row: FlowRow): Flow => ({
  id: Number(row.id),
  publicId: row.public_id,
  userId: Number(row.user_id),
  name: row.name,
  formFactor: row.form_factor,
  steps: row.steps,
  monitored: row.monitored,
  budgets: row.budgets ?? {},
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface NewFlow {
  publicId: string;
  userId: number;
  name: string;
  formFactor: FormFactor;
  steps: FlowStep[];
  monitored: boolean;
  /** Default `{}`. */
  budgets?: FlowBudgets;
  createdAt: Date;
}

export interface FlowChanges {
  name?: string;
  formFactor?: FormFactor;
  steps?: FlowStep[];
  monitored?: boolean;
  budgets?: FlowBudgets;
}

/** Flows (table `flows`), with their secrets (flow-secrets.ts) and runs (flow-runs.ts). */
export interface FlowStore extends FlowSecretStore, FlowRunStore {
  /** Runs `work` in one transaction holding the owner's flow lock, so the plan's count is decided one change at a time. */
  underOwnerLock<T>(userId: number, work: (locked: FlowStore) => Promise<T>): Promise<T>;
  countOwned(userId: number): Promise<number>;
  /**
   * `underOwnerLock` that also holds the owner's target lock (db/store/targets.ts), so that monitored flows and
   * targets, which share the plan's target limit, are counted one change at a time.
   */
  underMonitoringLock<T>(userId: number, work: (locked: FlowStore) => Promise<T>): Promise<T>;
  /** Targets and monitored flows of the owner: what the plan's `maxTargets` limits. */
  countMonitoredTargets(userId: number): Promise<number>;
  /** Row ids of every monitored flow (the reconciler's truth). */
  monitoredIds(): Promise<number[]>;
  findById(id: number): Promise<Flow | undefined>;
  /** Turns monitoring off for every flow of the owner (an account being deleted): the ids of all of them, and how many were monitored. */
  unmonitorOwned(userId: number): Promise<{ ids: number[]; turnedOff: number }>;
  insert(flow: NewFlow): Promise<Flow>;
  find(publicId: string): Promise<Flow | undefined>;
  findOwned(userId: number, publicId: string): Promise<Flow | undefined>;
  /** The owner's flows, oldest first. */
  listOwned(userId: number, page: PageQuery): Promise<Page<Flow>>;
  update(id: number, changes: FlowChanges, now: Date): Promise<Flow | undefined>;
  /** The flow with its secrets, runs and their steps (cascade); its runs' images are the caller's to remove. */
  delete(id: number): Promise<boolean>;
}

export function createFlowStore(knex: Knex | Knex.Transaction): FlowStore {
  const flows = () => knex<FlowRow>('flows');
  const json = (value: unknown) => JSON.stringify(value);

  return {
    ...createFlowSecretStore(knex),
    ...createFlowRunStore(knex),
    async underOwnerLock(userId, work) {
      return knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, userId]);
        return work(createFlowStore(trx));
      });
    },

    async underMonitoringLock(userId, work) {
      return knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, userId]);
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [TARGET_LOCK_NAMESPACE, userId]);
        return work(createFlowStore(trx));
      });
    },

    countMonitoredTargets: (userId) => countMonitoredTargets(knex, userId),

    async monitoredIds() {
      const ids = await flows().where({ monitored: true }).orderBy('id').pluck('id');
      return ids.map(Number);
    },

    async findById(id) {
      const row = (await flows().where({ id }).first()) as FlowRow | undefined;
      return row && toFlow(row);
    },

    async unmonitorOwned(userId) {
      const turnedOff = await flows().where({ user_id: userId, monitored: true }).update({ monitored: false });
      const ids = (await flows().where({ user_id: userId }).orderBy('id').pluck('id')).map(Number);
      return { ids, turnedOff };
    },

    async countOwned(userId) {
      const row = await flows().where({ user_id: userId }).count<{ count: string }[]>('* as count').first();
      return Number(row?.count ?? 0);
    },

    async insert(flow) {
      const [row] = (await flows()
        .insert({
          public_id: flow.publicId,
          user_id: flow.userId,
          name: flow.name,
          form_factor: flow.formFactor,
          steps: json(flow.steps) as unknown as FlowStep[],
          monitored: flow.monitored,
          budgets: json(flow.budgets ?? {}) as unknown as FlowBudgets,
          created_at: flow.createdAt,
          updated_at: flow.createdAt,
        })
        .returning('*')) as FlowRow[];
      return toFlow(row!);
    },

    async find(publicId) {
      const row = (await flows().where({ public_id: publicId }).first()) as FlowRow | undefined;
      return row && toFlow(row);
    },

    async findOwned(userId, publicId) {
      const row = (await flows().where({ public_id: publicId, user_id: userId }).first()) as FlowRow | undefined;
      return row && toFlow(row);
    },

    async listOwned(userId, page) {
      const [rows, total] = await Promise.all([
        flows().where({ user_id: userId }).orderBy('id').limit(page.limit).offset(pageOffset(page)),
        flows().where({ user_id: userId }).count<{ count: string }[]>('* as count').first(),
      ]);
      return { items: (rows as FlowRow[]).map(toFlow), meta: pageMeta(page, Number(total?.count ?? 0)) };
    },

    async update(id, changes, now) {
      const [row] = (await flows()
        .where({ id })
        .update({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.formFactor !== undefined ? { form_factor: changes.formFactor } : {}),
          ...(changes.steps !== undefined ? { steps: json(changes.steps) as unknown as FlowStep[] } : {}),
          ...(changes.monitored !== undefined ? { monitored: changes.monitored } : {}),
          ...(changes.budgets !== undefined ? { budgets: json(changes.budgets) as unknown as FlowBudgets } : {}),
          updated_at: now,
        })
        .returning('*')) as FlowRow[];
      return row && toFlow(row);
    },

    async delete(id) {
      return (await flows().where({ id }).delete()) > 0;
    },
  };
}
