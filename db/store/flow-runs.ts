import type { Knex } from 'knex';
import { pageMeta, pageOffset, type Page, type PageQuery } from '../../core/pagination.ts';
import type {
  FlowDefinition,
  FlowFailure,
  FlowRunOutcome,
  FlowStepResult,
  RunFailureCode,
} from '../../core/flows/flow.ts';
import { createWebhookStore, type WebhookStore } from './webhooks.ts';

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

export interface NewFlowRun {
  publicId: string;
  flowId: number;
  userId: number;
  region: string;
  trigger: FlowRunTrigger;
  definition: FlowDefinition;
  requestedAt: Date;
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

/** A flow's runs and their measured steps (table `flow_runs`, `flow_run_steps`). */
export interface FlowRunStore {
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

export function createFlowRunStore(knex: Knex | Knex.Transaction): FlowRunStore {
  const runs = () =>
    knex('flow_runs as r')
      .join('flows as f', 'f.id', 'r.flow_id')
      .select<RunRow[]>('r.*', 'f.public_id as flow_public_id');
  const json = (value: unknown) => JSON.stringify(value);

  const store: FlowRunStore = {
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
        const ended = createFlowRunStore(trx);
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
        const ended = createFlowRunStore(trx);
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
