import { proxyActivities } from '@temporalio/workflow';
import type { AlertActivities } from '../activities/alerts.ts';
import type { ScanOutcome } from '../activities/scan.ts';
import type { RegressionKey } from '../core/monitoring/regression-rules.ts';
import type { ConfirmationEvaluation } from '../core/monitoring/alert-evaluation.ts';
import { startAlertEmails, type EmailRetry } from './alert-emails.ts';
import { dispatchAndRunTargetScan, scanIdOfThisRun } from './target-scan-run.ts';

const { confirmTargetRegressions } = proxyActivities<AlertActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '6 hours',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export interface TargetConfirmInput {
  targetId: number;
  /** The scheduled scan whose values made the candidates. */
  candidateScanId: string;
  keys: RegressionKey[];
  emailRetry?: EmailRetry;
}

export type TargetConfirmOutcome =
  | { dispatched: false }
  | { dispatched: true; scanId: string; outcome: ScanOutcome; evaluation: ConfirmationEvaluation | null };

/**
 * Started by the evaluation of a target's scan that made regression candidates (workflows/target-alerts.ts),
 * with the id `target-confirm-<targetId>-<scanId>`: stores one more scan of the target at once (trigger
 * `confirmation`, the plan's scheduled runs), runs it as an ordinary scan (a child `scanWorkflow` with the
 * search attributes of any target scan), then judges the two scans together against the baseline
 * (services/regression-evaluation.ts) and sends the e-mails of the alerts it raised. A confirmation scan is
 * never evaluated on its own, so it starts no confirmation of its own. Nothing runs for a target that is gone
 * or paused.
 */
export async function targetConfirmWorkflow(input: TargetConfirmInput): Promise<TargetConfirmOutcome> {
  const publicId = scanIdOfThisRun();
  const ran = await dispatchAndRunTargetScan(input.targetId, publicId, 'confirmation');
  if (!ran) return { dispatched: false };
  const { outcome } = ran;
  if (outcome.status !== 'finished') return { dispatched: true, scanId: publicId, outcome, evaluation: null };
  const evaluation = await confirmTargetRegressions({
    candidateScanId: input.candidateScanId,
    confirmationScanId: publicId,
    keys: input.keys,
  });
  await startAlertEmails(evaluation.emails, input.emailRetry);
  return { dispatched: true, scanId: publicId, outcome, evaluation };
}
