import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Clock } from '../../core/clock.ts';
import { RUN_FAILURE_MESSAGES, type FlowSecretValue, type RunFailureCode } from '../../core/flows/flow.ts';
import { flowAttemptLimitMs } from '../../core/flows/lifecycle.ts';
import { decryptFlowSecret } from '../../core/flows/secrets.ts';
import { planFor } from '../../core/plans.ts';
import type { SlotRequest } from '../../core/scan/slots.ts';
import { flowRunWorkflowId } from '../../core/temporal.ts';
import type { FlowRunOutbox, FlowStore } from '../../db/store/flows.ts';
import type { UserStore } from '../../db/store/users.ts';
import type { Config } from '../../infra/config.ts';
import type { Logger } from '../../infra/logger.ts';
import { requestScanSlot } from '../../infra/temporal-client.ts';
import type { AssetStore } from '../../services/assets.ts';
import { flowRunWebhooks } from '../../services/flow-webhooks.ts';
import type { WebhookDelivery } from '../../core/webhooks/delivery.ts';
import type { WebhookDispatch } from '../../services/webhook-dispatch.ts';
import type { FlowRunner } from './flow-runner.ts';
import type { AlertStore } from '../../db/store/alerts.ts';
import type { AlertChange } from '../../core/monitoring/alert.ts';
import { evaluateFlowRunAlerts } from '../../services/flow-alerts.ts';

export interface FlowRunActivityDeps {
  flows: FlowStore;
  users: UserStore;
  config: Config;
  assets: AssetStore;
  temporal: () => Client;
  clock: Clock;
  log: Logger;
  /** The runner (activities/flows/process-flow-runner.ts in the worker). */
  flowRunner: FlowRunner;
  /** Starts the flow.* webhooks' workflows after the run's end commits (the outbox sweeper catches misses). */
  webhookDispatch?: WebhookDispatch;
  /** The flow's alerts (services/flow-alerts.ts: step budgets, failed runs); without it a run raises none. */
  alerts?: AlertStore;
  /** Sends one alert e-mail and records it (activities/alerts.ts's sendAlertEmail). */
  sendAlertEmail?: (alertId: number, change: AlertChange) => Promise<unknown>;
}

export type FlowRunStatus = { status: 'finished' } | { status: 'failed' };

const HEARTBEAT_EVERY_MS = 5000;

/**
 * How a run's end is recorded wherever it ends (its workflow, the reconciler): the flow.* webhook's outbox row
 * commits with the end, its delivery starts after the commit, then the flow's alerts are judged.
 */
export function createFlowRunEnding(deps: FlowRunActivityDeps) {
  const { flows, config, clock, log } = deps;
  const outbox: FlowRunOutbox<WebhookDelivery> = (run, steps, webhooks) =>
    flowRunWebhooks(webhooks, run, steps, config.baseUrl, clock());
  const dispatch = async (deliveries: WebhookDelivery[] | null) => {
    if (deliveries?.length) await deps.webhookDispatch?.start(deliveries);
  };
  /**
   * The flow's alerts after a run ended (its step budgets, whether it failed): alert changes and their webhooks
   * commit together, the e-mails due go out after. Idempotent, so a retried attempt judges the run again safely.
   */
  const judgeRun = async (runId: string) => {
    if (!deps.alerts) return;
    const { evaluation, webhooks } = await evaluateFlowRunAlerts({ alerts: deps.alerts, flows }, runId, clock());
    if (evaluation.changes.length) log.info({ flowRunId: runId, changes: evaluation.changes }, 'flow alerts changed');
    await dispatch(webhooks);
    for (const { alertId, change } of evaluation.emails) {
      try {
        await deps.sendAlertEmail?.(alertId, change);
      } catch (error) {
        // A refused address (SMTP 5xx) must not fail a run that ended; anything else is retried with the attempt.
        if (!(error instanceof ApplicationFailure && error.nonRetryable)) throw error;
        log.warn({ flowRunId: runId, alertId, change }, 'flow alert e-mail refused');
      }
    }
  };
  /**
   * Fails a run still queued or running outside any step, with its flow.failed webhook and alerts; false when it
   * had ended already. `detail` is for operators (logged); the run shows `message`.
   */
  const failRun = async (runId: string, code: RunFailureCode, message: string, detail: string): Promise<boolean> => {
    const failure = { index: null, step_type: null, code, message, screenshot: null };
    const deliveries = await flows.failRunWithOutbox(runId, failure, clock(), outbox);
    if (deliveries) log.warn({ flowRunId: runId, code, detail }, 'flow run failed');
    await dispatch(deliveries);
    await judgeRun(runId);
    return deliveries !== null;
  };
  return { outbox, dispatch, judgeRun, failRun };
}

/**
 * The flow-run workflow's activities. Only ids go in and only statuses come out: the secrets are read and
 * decrypted inside `runFlow`, handed to the runner, and never returned, logged or put into Temporal's history.
 */
export function createFlowRunActivities(deps: FlowRunActivityDeps) {
  const { flows, config, clock, log } = deps;
  const { outbox, dispatch, judgeRun, failRun } = createFlowRunEnding(deps);
  return {
    /**
     * Asks the region's dispatcher for a slot for the run, as a scan does (the same queue, the account's cap of
     * scans in flight counting runs too). The holder id is the run's workflow id, which the dispatcher signals.
     */
    async requestFlowRunSlot(runId: string): Promise<{ dispatcherId: string; holderId: string }> {
      const run = await flows.findRun(runId);
      const user = run && (await deps.users.findById(run.userId));
      if (!run || !user) throw ApplicationFailure.nonRetryable(`flow run ${runId} or its account not found`);
      const holderId = flowRunWorkflowId(runId);
      const request: SlotRequest = {
        scanId: holderId,
        accountId: user.id,
        accountCap: planFor(user.plan).scansInFlightPerRegion,
        capacity: config.regions.slots[run.region] ?? 1,
      };
      const { dispatcherId } = await requestScanSlot(
        deps.temporal(),
        config.temporal.taskQueuePrefix,
        run.region,
        request,
      );
      return { dispatcherId, holderId };
    },

    /** queued → running; answers the step count, which the run's time limits grow with (0: the run is gone or ended). */
    async markFlowRunRunning(runId: string): Promise<{ steps: number }> {
      await flows.markRunRunning(runId, clock());
      const run = await flows.findRun(runId);
      return { steps: run && (run.status === 'running' || run.status === 'queued') ? run.definition.steps.length : 0 };
    },

    /** `detail` is for operators (logged); the run shows a plain message. */
    async markFlowRunFailed(runId: string, detail: string): Promise<void> {
      await failRun(runId, 'run_error', RUN_FAILURE_MESSAGES.crashed, detail);
    },

    /**
     * Runs the flow in a fresh browser and stores its outcome: the measured steps, or the failing step (the flow's
     * own failure, recorded once), with their screenshots in the asset store under the run's id. Crashes and hangs
     * throw for Temporal to retry. A run that ended already, or whose flow is gone, is not run.
     */
    async runFlow(runId: string): Promise<FlowRunStatus> {
      const context = Context.current();
      let step = 'starting';
      const heartbeat = setInterval(() => context.heartbeat({ step }), HEARTBEAT_EVERY_MS);
      const deadline = new AbortController();
      const run = await flows.findRun(runId);
      if (!run) return { status: 'failed' };
      if (run.status === 'finished' || run.status === 'failed') {
        clearInterval(heartbeat);
        await judgeRun(runId);
        return { status: run.status };
      }
      const timer = setTimeout(
        () => deadline.abort(new Error('the flow run took too long')),
        flowAttemptLimitMs(run.definition.steps.length),
      );
      try {
        const secrets: Record<string, FlowSecretValue> = {};
        for (const secret of await flows.encryptedSecrets(run.flowId))
          secrets[secret.name] = {
            kind: secret.kind,
            value: decryptFlowSecret(config.keys, run.flowPublicId, secret.name, secret.valueEncrypted),
          };
        const { outcome, images } = await deps.flowRunner.run(
          { runId, definition: run.definition, secrets },
          {
            onProgress: (next) => {
              step = next;
              context.heartbeat({ step });
            },
            signal: AbortSignal.any([context.cancellationSignal, deadline.signal]),
          },
        );
        for (const image of images) await deps.assets.put(runId, image.name, image.bytes);
        // The flow.* webhook's outbox row commits with the run's end; its delivery starts after the commit.
        await dispatch(await flows.finishRunWithOutbox(runId, outcome, clock(), outbox));
        step = 'alerts';
        await judgeRun(runId);
        log.info(
          { flowRunId: runId, steps: outcome.steps.length, failed: outcome.failure?.code ?? null },
          'flow run ended',
        );
        return { status: outcome.failure ? 'failed' : 'finished' };
      } catch (error) {
        log.warn({ flowRunId: runId, attempt: context.info.attempt, err: error }, 'flow run attempt failed');
        throw error;
      } finally {
        clearInterval(heartbeat);
        clearTimeout(timer);
      }
    },
  };
}

export type FlowRunActivities = ReturnType<typeof createFlowRunActivities>;
