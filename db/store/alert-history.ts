import type { Knex } from 'knex';
import type { PreviousScan } from '../../core/monitoring/alert-rules.ts';
import { valuesOfResult, type ResultValues, type ScanValues } from '../../core/monitoring/regression-rules.ts';
import { budgetMeasurement, type BudgetMeasurement, type MeasuredResult } from '../../core/monitoring/budgets.ts';
import type { ScanStatus, ScanTrigger } from '../../core/scan/scan.ts';
import type { ScanScores } from '../../core/scoring/categories.ts';

/** A scan as alert evaluation sees it. */
export interface EvaluatedScan {
  id: number;
  publicId: string;
  targetId: number | null;
  status: ScanStatus;
  finishedAt: Date | null;
  scores: ScanScores | null;
  trigger: ScanTrigger;
  /** The values regressions are watched on (core/monitoring/regression-rules.ts); null until finished. */
  values: ScanValues['values'] | null;
  /** What budgets are judged on (core/monitoring/budgets.ts); null without scores. */
  measurement: BudgetMeasurement | null;
}

/** What alert evaluation reads of a target's scans and a flow's runs (services/alert-evaluation.ts, services/flow-alerts.ts). */
export interface AlertHistoryReads {
  scanForEvaluation(publicId: string): Promise<EvaluatedScan | undefined>;
  /** The target's finished scheduled scans before `scan` (by finish time), newest first. */
  previousScheduledScans(targetId: number, scan: EvaluatedScan, limit: number): Promise<PreviousScan[]>;
  /**
   * The regression baseline: the values of the target's finished scheduled scans before `scan` (by finish
   * time, confirmation scans left out), newest first.
   */
  scheduledScanValues(targetId: number, scan: EvaluatedScan, limit: number): Promise<ScanValues[]>;
  /** Whether a scheduled scan of the target finished after `scan`: then `scan`'s verdict is out of date. */
  laterScheduledScanFinished(targetId: number, scan: EvaluatedScan): Promise<boolean>;
  /** Whether a run of the flow ended (finished or failed) after the run `runPublicId` (then its verdict is out of date). */
  laterFlowRunEnded(flowId: number, runPublicId: string): Promise<boolean>;
}

interface ValueRow {
  scores: ScanScores | null;
  metrics: ResultValues['metrics'] | null;
  ttfb_ms: number | null;
}

const valuesOrNull = (row: ValueRow): ScanValues['values'] | null =>
  row.scores && row.metrics && row.ttfb_ms !== null
    ? valuesOfResult({ scores: row.scores, metrics: row.metrics, ttfbMs: row.ttfb_ms })
    : null;

/** The scan and flow-run history reads of alert evaluation; the alert rows themselves are in alerts.ts. */
export function createAlertHistoryReads(knex: Knex | Knex.Transaction): AlertHistoryReads {
  // Confirmation scans are not the target's history: they are taken only when a scan looked worse.
  const scheduledFinished = (targetId: number) =>
    knex('scans').where({ target_id: targetId, status: 'finished' }).whereNot('trigger', 'confirmation');
  return {
    async scanForEvaluation(publicId) {
      const row = (await knex('scans')
        .where({ public_id: publicId })
        .first(
          'id',
          'public_id',
          'target_id',
          'status',
          'finished_at',
          'trigger',
          knex.raw(`result->'scores' as scores`),
          knex.raw(`result->'metrics' as metrics`),
          knex.raw(`(result->>'ttfbMs')::float8 as ttfb_ms`),
          knex.raw(`result->'lighthouse'->'categories' as lighthouse`),
        )) as
        | {
            id: string;
            public_id: string;
            target_id: string | null;
            status: ScanStatus;
            finished_at: Date | null;
            trigger: ScanTrigger;
            scores: ScanScores | null;
            metrics: MeasuredResult['metrics'] | null;
            ttfb_ms: number | null;
            lighthouse: MeasuredResult['lighthouse'];
          }
        | undefined;
      return (
        row && {
          id: Number(row.id),
          publicId: row.public_id,
          targetId: row.target_id === null ? null : Number(row.target_id),
          status: row.status,
          finishedAt: row.finished_at,
          scores: row.scores,
          trigger: row.trigger,
          values: valuesOrNull(row),
          measurement:
            row.scores &&
            budgetMeasurement({
              scores: row.scores,
              metrics: row.metrics ?? {},
              ttfbMs: row.ttfb_ms,
              lighthouse: row.lighthouse,
            }),
        }
      );
    },

    async previousScheduledScans(targetId, scan, limit) {
      const rows = (await scheduledFinished(targetId)
        .whereRaw('(finished_at, id) < (?, ?)', [scan.finishedAt, scan.id])
        .orderBy([
          { column: 'finished_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .select('finished_at', knex.raw(`(result->'scores'->>'overall')::int as overall`))) as Array<{
        finished_at: Date;
        overall: number | null;
      }>;
      return rows
        .filter((row) => row.overall !== null)
        .map((row) => ({ overall: row.overall!, finishedAt: row.finished_at }));
    },

    async scheduledScanValues(targetId, scan, limit) {
      const rows = (await scheduledFinished(targetId)
        .whereRaw('(finished_at, id) < (?, ?)', [scan.finishedAt, scan.id])
        .orderBy([
          { column: 'finished_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .select(
          'finished_at',
          knex.raw(`result->'scores' as scores`),
          knex.raw(`result->'metrics' as metrics`),
          knex.raw(`(result->>'ttfbMs')::float8 as ttfb_ms`),
        )) as Array<ValueRow & { finished_at: Date }>;
      return rows.flatMap((row) => {
        const values = valuesOrNull(row);
        return values ? [{ finishedAt: row.finished_at, values }] : [];
      });
    },

    async laterScheduledScanFinished(targetId, scan) {
      const row = await scheduledFinished(targetId)
        .whereRaw('(finished_at, id) > (?, ?)', [scan.finishedAt, scan.id])
        .first('id');
      return row !== undefined;
    },

    async laterFlowRunEnded(flowId, runPublicId) {
      const row = await knex('flow_runs as later')
        .join('flow_runs as run', 'run.flow_id', 'later.flow_id')
        .where({ 'run.public_id': runPublicId, 'later.flow_id': flowId })
        .whereIn('later.status', ['finished', 'failed'])
        .whereRaw('(later.finished_at, later.id) > (run.finished_at, run.id)')
        .first('later.id');
      return row !== undefined;
    },
  };
}
