import type { FlowBudgets } from '../../core/flows/flow-budgets.ts';
import type { Knex } from 'knex';
import { pageMeta, pageOffset, type Page, type PageQuery } from '../../core/pagination.ts';
import type {
  FlowDefinition,
  FlowFailure,
  FlowRunOutcome,
  FlowSecretKind,
  FlowStep,
  FlowStepResult,
  RunFailureCode,
} from '../../core/flows/flow.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import { countMonitoredTargets, TARGET_LOCK_NAMESPACE } from './targets.ts';
import { createWebhookStore, type WebhookStore } from './webhooks.ts';

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

export interface FlowSecretInfo {
  name: string;
  kind: FlowSecretKind;
  updatedAt: Date;
}

export type FlowRunStatus = 'queued' | 'running' | 'finished' | 'failed';
/** What started a run: the API's run-now, the web area's, or the flow's daily schedule. */
export type FlowRunTrigger = 'api' | 'web' | 'schedule';

/** A run that ended before or outside any step (the runner crashed on every attempt, it never started). */
export interface FlowRunError {
  index: null;
  step_type: null;
  code: RunFailureCode;
  message: string;
  screenshot: null;
}
export type StoredFlowFailure = FlowFailure | FlowRunError;

export interface FlowRun {
  id: number;
  publicId: string;
  flowId: number;
  flowPublicId: string;
  userId: number;
  region: string;
  status: FlowRunStatus;
  trigger: FlowRunTrigger;
  /** The definition as it was when the run was asked for (a later edit of the flow does not change it). */
  definition: FlowDefinition;
  failure: StoredFlowFailure | null;
  lighthouseVersion: string | null;
  chromiumVersion: string | null;
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
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

interface RunRow {
  id: number;
  public_id: string;
  flow_id: number;
  flow_public_id: string;
  user_id: number;
  region: string;
  status: FlowRunStatus;
  trigger: FlowRunTrigger;
  definition: FlowDefinition;
  failure: StoredFlowFailure | null;
  lighthouse_version: string | null;
  chromium_version: string | null;
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

interface StepRow {
  index: number;
  mode: FlowStepResult['mode'];
  name: string;
  url: string;
  scores: FlowStepResult['scores'];
  metrics: FlowStepResult['metrics'];
  findings: FlowStepResult['findings'];
  screenshot: string | null;
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

const toRun = (row: RunRow): FlowRun => ({
  id: Number(row.id),
  publicId: row.public_id,
  flowId: Number(row.flow_id),
  flowPublicId: row.flow_public_id,
  userId: Number(row.user_id),
  region: row.region,
  status: row.status,
  trigger: row.trigger,
  definition: row.definition,
  failure: row.failure,
  lighthouseVersion: row.lighthouse_version,
  chromiumVersion: row.chromium_version,
  requestedAt: row.requested_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
});

const toStep = (row: StepRow): FlowStepResult => ({
  index: row.index,
  mode: row.mode,
  name: row.name,
  url: row.url,
  scores: row.scores,
  metrics: row.metrics,
  findings: row.findings,
  screenshot: row.screenshot,
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

export interface NewFlowRun {
  publicId: string;
  flowId: number;
  userId: number;
  region: string;
  trigger: FlowRunTrigger;
  definition: FlowDefinition;
  requestedAt: Date;
}

export interface FlowStore {
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

  /** Names and kinds only: the values never leave the store except through `encryptedSecrets`. */
  secrets(flowId: number): Promise<FlowSecretInfo[]>;
  /** The stored ciphertexts, for the flow-run activity alone. */
  encryptedSecrets(flowId: number): Promise<Array<{ name: string; kind: FlowSecretKind; valueEncrypted: string }>>;
  /** Sets a secret; true when it was new. */
  putSecret(
    flowId: number,
    secret: { name: string; kind: FlowSecretKind; valueEncrypted: string },
    now: Date,
  ): Promise<boolean>;
  deleteSecret(flowId: number, name: string): Promise<boolean>;

  insertRun(run: NewFlowRun): Promise<FlowRun>;
  findRun(publicId: string): Promise<FlowRun | undefined>;
  findRunOfFlow(flowId: number, publicId: string): Promise<FlowRun | undefined>;
  /** The flow's runs, newest first. */
  listRuns(flowId: number, page: PageQuery): Promise<Page<FlowRun>>;
  /** The public ids of every run of the flow (their image folders). */
  runIds(flowId: number): Promise<string[]>;
  /** queued → running; false when the run is not queued (already running, ended, gone). */
  markRunRunning(publicId: string, now: Date): Promise<boolean>;
  /**
   * Stores the outcome and ends the run (finished, or failed with the failing step) in one transaction; a run
   * that ended already is left as it is (false), so a retried activity stores nothing twice.
   */
  finishRun(publicId: string, outcome: FlowRunOutcome, now: Date): Promise<boolean>;
  /** finishRun, and `outbox` with the ended run in the same transaction; null when the run had ended already. */
  finishRunWithOutbox<T>(
    publicId: string,
    outcome: FlowRunOutcome,
    now: Date,
    outbox: FlowRunOutbox<T>,
  ): Promise<T[] | null>;
  /** Fails a run that has not ended; false when it had. */
  failRun(publicId: string, failure: StoredFlowFailure, now: Date): Promise<boolean>;
  /** failRun, and `outbox` with the failed run in the same transaction; null when the run had ended already. */
  failRunWithOutbox<T>(
    publicId: string,
    failure: StoredFlowFailure,
    now: Date,
    outbox: FlowRunOutbox<T>,
  ): Promise<T[] | null>;
  runSteps(runId: number): Promise<FlowStepResult[]>;
  /** The flow's run still queued or running, if any. */
  inFlightRun(flowId: number): Promise<FlowRun | undefined>;
  /** Runs still queued or running that were requested before `before`, by id after `afterId` (the reconciler's pages). */
  inFlightRunsRequestedBefore(
    before: Date,
    afterId: number,
    limit: number,
  ): Promise<Array<{ id: number; publicId: string; status: 'queued' | 'running' }>>;
  /** The measured steps of the flow's finished runs that ended at or after `since`, oldest run first, by step index. */
  history(flowId: number, since: Date): Promise<FlowHistoryRow[]>;
}

/** One measured step of one finished run, as the history reads it. */
export interface FlowHistoryRow {
  runId: string;
  finishedAt: Date;
  trigger: FlowRunTrigger;
  step: Pick<FlowStepResult, 'index' | 'mode' | 'name' | 'url' | 'scores' | 'metrics'>;
}

/** Writes a run's webhook outbox rows in the transaction that ends the run; answers the deliveries to start. */
export type FlowRunOutbox<T> = (run: FlowRun, steps: FlowStepResult[], webhooks: WebhookStore) => Promise<T[]>;

export function createFlowStore(knex: Knex | Knex.Transaction): FlowStore {
  const flows = () => knex<FlowRow>('flows');
  const runs = () =>
    knex('flow_runs as r')
      .join('flows as f', 'f.id', 'r.flow_id')
      .select<RunRow[]>('r.*', 'f.public_id as flow_public_id');
  const json = (value: unknown) => JSON.stringify(value);

  const store: FlowStore = {
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

    async secrets(flowId) {
      const rows = await knex('flow_secrets')
        .where({ flow_id: flowId })
        .orderBy('name')
        .select('name', 'kind', 'updated_at');
      return rows.map((row) => ({
        name: row.name as string,
        kind: row.kind as FlowSecretKind,
        updatedAt: row.updated_at as Date,
      }));
    },

    async encryptedSecrets(flowId) {
      const rows = await knex('flow_secrets').where({ flow_id: flowId }).select('name', 'kind', 'value_encrypted');
      return rows.map((row) => ({
        name: row.name as string,
        kind: row.kind as FlowSecretKind,
        valueEncrypted: row.value_encrypted as string,
      }));
    },

    async putSecret(flowId, secret, now) {
      const rows = (await knex('flow_secrets')
        .insert({
          flow_id: flowId,
          name: secret.name,
          kind: secret.kind,
          value_encrypted: secret.valueEncrypted,
          created_at: now,
          updated_at: now,
        })
        .onConflict(['flow_id', 'name'])
        .merge(['kind', 'value_encrypted', 'updated_at'])
        .returning(knex.raw('(xmax = 0) as inserted'))) as Array<{ inserted: boolean }>;
      return rows[0]?.inserted === true;
    },

    async deleteSecret(flowId, name) {
      return (await knex('flow_secrets').where({ flow_id: flowId, name }).delete()) > 0;
    },

    async insertRun(run) {
      await knex('flow_runs').insert({
        public_id: run.publicId,
        flow_id: run.flowId,
        user_id: run.userId,
        region: run.region,
        status: 'queued',
        trigger: run.trigger,
        definition: json(run.definition),
        requested_at: run.requestedAt,
      });
      const stored = (await runs().where('r.public_id', run.publicId).first()) as RunRow;
      return toRun(stored);
    },

    async findRun(publicId) {
      const row = (await runs().where('r.public_id', publicId).first()) as RunRow | undefined;
      return row && toRun(row);
    },

    async findRunOfFlow(flowId, publicId) {
      const row = (await runs().where({ 'r.public_id': publicId, 'r.flow_id': flowId }).first()) as RunRow | undefined;
      return row && toRun(row);
    },

    async listRuns(flowId, page) {
      const [rows, total] = await Promise.all([
        runs().where('r.flow_id', flowId).orderBy('r.id', 'desc').limit(page.limit).offset(pageOffset(page)),
        knex('flow_runs').where({ flow_id: flowId }).count<{ count: string }[]>('* as count').first(),
      ]);
      return { items: rows.map(toRun), meta: pageMeta(page, Number(total?.count ?? 0)) };
    },

    async runIds(flowId) {
      return knex('flow_runs').where({ flow_id: flowId }).orderBy('id').pluck('public_id');
    },

    async markRunRunning(publicId, now) {
      const n = await knex('flow_runs')
        .where({ public_id: publicId, status: 'queued' })
        .update({ status: 'running', started_at: now });
      return n > 0;
    },

    async finishRun(publicId, outcome, now) {
      return (await store.finishRunWithOutbox(publicId, outcome, now, async () => [])) !== null;
    },

    async finishRunWithOutbox(publicId, outcome, now, outbox) {
      return knex.transaction(async (trx) => {
        const run = await trx('flow_runs')
          .where({ public_id: publicId })
          .whereIn('status', ['queued', 'running'])
          .forUpdate()
          .first('id');
        if (!run) return null;
        const runId = Number(run.id);
        if (outcome.steps.length)
          await trx('flow_run_steps').insert(
            outcome.steps.map((step) => ({
              run_id: runId,
              index: step.index,
              mode: step.mode,
              name: step.name,
              url: step.url,
              scores: json(step.scores),
              metrics: json(step.metrics),
              findings: json(step.findings),
              screenshot: step.screenshot,
            })),
          );
        await trx('flow_runs')
          .where({ id: runId })
          .update({
            status: outcome.failure ? 'failed' : 'finished',
            failure: outcome.failure ? json(outcome.failure) : null,
            lighthouse_version: outcome.lighthouseVersion,
            chromium_version: outcome.chromiumVersion,
            finished_at: now,
          });
        const ended = createFlowStore(trx);
        return outbox((await ended.findRun(publicId))!, outcome.steps, createWebhookStore(trx));
      });
    },

    async failRun(publicId, failure, now) {
      return (await store.failRunWithOutbox(publicId, failure, now, async () => [])) !== null;
    },

    async failRunWithOutbox(publicId, failure, now, outbox) {
      return knex.transaction(async (trx) => {
        const n = await trx('flow_runs')
          .where({ public_id: publicId })
          .whereIn('status', ['queued', 'running'])
          .update({ status: 'failed', failure: json(failure), finished_at: now });
        if (n === 0) return null;
        const ended = createFlowStore(trx);
        const run = (await ended.findRun(publicId))!;
        return outbox(run, await ended.runSteps(run.id), createWebhookStore(trx));
      });
    },

    async runSteps(runId) {
      const rows = (await knex('flow_run_steps').where({ run_id: runId }).orderBy('index')) as StepRow[];
      return rows.map(toStep);
    },

    async inFlightRun(flowId) {
      const row = (await runs()
        .where('r.flow_id', flowId)
        .whereIn('r.status', ['queued', 'running'])
        .orderBy('r.id', 'desc')
        .first()) as RunRow | undefined;
      return row && toRun(row);
    },

    async inFlightRunsRequestedBefore(before, afterId, limit) {
      const rows = (await knex('flow_runs')
        .whereIn('status', ['queued', 'running'])
        .where('requested_at', '<', before)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .select('id', 'public_id', 'status')) as Array<Pick<RunRow, 'id' | 'public_id' | 'status'>>;
      return rows.map((row) => ({
        id: Number(row.id),
        publicId: row.public_id,
        status: row.status === 'queued' ? ('queued' as const) : ('running' as const),
      }));
    },

    async history(flowId, since) {
      const rows = (await knex('flow_run_steps as s')
        .join('flow_runs as r', 'r.id', 's.run_id')
        .where({ 'r.flow_id': flowId, 'r.status': 'finished' })
        .where('r.finished_at', '>=', since)
        .orderBy([
          { column: 'r.finished_at', order: 'asc' },
          { column: 'r.id', order: 'asc' },
          { column: 's.index', order: 'asc' },
        ])
        .select(
          'r.public_id as run_id',
          'r.finished_at',
          'r.trigger',
          's.index',
          's.mode',
          's.name',
          's.url',
          's.scores',
          's.metrics',
        )) as Array<
        Pick<StepRow, 'index' | 'mode' | 'name' | 'url' | 'scores' | 'metrics'> & {
          run_id: string;
          finished_at: Date;
          trigger: FlowRunTrigger;
        }
      >;
      return rows.map((row) => ({
        runId: row.run_id,
        finishedAt: row.finished_at,
        trigger: row.trigger,
        step: {
          index: row.index,
          mode: row.mode,
          name: row.name,
          url: row.url,
          scores: row.scores,
          metrics: row.metrics,
        },
      }));
    },
  };
  return store;
}
