import { ALERT_CHANGES, type Alert, type AlertType } from '../core/monitoring/alert.ts';
import { emailDue } from '../core/monitoring/alert-email.ts';
import type { AlertTransition } from '../core/monitoring/alert-transition.ts';
import { budgetTransition } from '../core/monitoring/budget-rules.ts';
import { flowFailureTransition } from '../core/monitoring/flow-failure-rules.ts';
import { failedStep } from '../core/flows/definition.ts';
import { flowBudgetsJudged } from '../core/flows/flow-budgets.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { AlertFlow, AlertStore } from '../db/store/alerts.ts';
import type { FlowRun, FlowStore } from '../db/store/flows.ts';
import type { AlertEmailJob, AlertEvaluation } from '../core/monitoring/alert-evaluation.ts';
import { enqueueAlertWebhooks } from './alert-changes.ts';

export interface FlowRunEvaluation {
  /**
   * `evaluated`; or why nothing was decided: the run is unknown or has not ended, the flow is neither monitored
   * nor has an open alert, the flow is gone, or a later run of the flow ended (`superseded`).
   */
  outcome: 'evaluated' | 'run_not_found' | 'not_ended' | 'not_monitored' | 'flow_gone' | 'superseded';
  changes: AlertEvaluation['changes'];
  /** E-mails still due for the alert changes of this run (from the rows, so a retry still sends them). */
  emails: AlertEmailJob[];
}

/**
 * Judges an ended run of a monitored flow: a finished run against the flow's step budgets
 * (core/flows/flow-budgets.ts) with the targets' rule (core/monitoring/budget-rules.ts), and any ended run by
 * whether it failed (core/monitoring/flow-failure-rules.ts). One alert per flow and type (metric_over_budget,
 * flow_failed), `target_id` null and `details.flow` naming the flow, raised, escalated or resolved in one
 * transaction under the flow's row lock with its alert.* webhooks and Slack/Teams deliveries in the outbox.
 * A flow no longer monitored raises nothing new, but an alert it left open may still change. Evaluating a run
 * again changes nothing.
 */
export async function evaluateFlowRunAlerts(
  stores: { alerts: AlertStore; flows: FlowStore },
  runPublicId: string,
  now: Date,
): Promise<{ evaluation: FlowRunEvaluation; webhooks: WebhookDelivery[] }> {
  const none = (outcome: FlowRunEvaluation['outcome']) => ({
    evaluation: { outcome, changes: [], emails: [] },
    webhooks: [],
  });
  const run = await stores.flows.findRun(runPublicId);
  if (!run) return none('run_not_found');
  if (run.status !== 'finished' && run.status !== 'failed') return none('not_ended');
  // A failed run measured only part of the journey: its budgets are not judged.
  const steps = run.failure ? null : await stores.flows.runSteps(run.id);
  const result = await stores.alerts.underFlowLock(run.flowId, async (locked, flow, outbox) => {
    const unresolved = await locked.unresolvedOfFlow(flow.id);
    const open = (type: AlertType) => unresolved.find((a) => a.type === type);
    const watched = (type: AlertType) => flow.monitored || open(type) !== undefined;
    if (!watched('metric_over_budget') && !watched('flow_failed')) return none('not_monitored');
    if (await locked.laterFlowRunEnded(flow.id, run.publicId)) return none('superseded');
    const transitions = [
      ...(steps && watched('metric_over_budget')
        ? budgetTransition(flowBudgetsJudged(flow.budgets, steps), open('metric_over_budget'))
        : []),
      ...(watched('flow_failed')
        ? flowFailureTransition(
            { publicId: run.publicId, failedStep: run.failure && failedStep(run.failure, run.definition) },
            open('flow_failed'),
          )
        : []),
    ];
    const changes: AlertEvaluation['changes'] = [];
    for (const transition of transitions) {
      const alertId = await applyToFlow(locked, transition, { flow, run, now, unresolved });
      changes.push({ alertId, type: transition.type, change: transition.change });
    }
    const emails = (await locked.changedByFlowRun(flow.id, run.publicId)).flatMap((alert) =>
      ALERT_CHANGES.filter((change) => emailDue(alert, change) === 'send').map((change) => ({
        alertId: alert.id,
        change,
      })),
    );
    const webhooks = await enqueueAlertWebhooks(locked, outbox, changes, now);
    return { evaluation: { outcome: 'evaluated', changes, emails } satisfies FlowRunEvaluation, webhooks };
  });
  return result ?? none('flow_gone');
}

/** The page a flow's alert names: its first navigation (url and host, as a target's alert names the target's). */
function flowPage(run: FlowRun): { url: string; host: string } {
  const first = run.definition.steps.find((step) => step.type === 'navigate');
  const url = first && first.type === 'navigate' ? first.url : '';
  return { url, host: url ? new URL(url).host : '' };
}

async function applyToFlow(
  locked: AlertStore,
  transition: AlertTransition,
  context: { flow: AlertFlow; run: FlowRun; now: Date; unresolved: Alert[] },
): Promise<number> {
  const { flow, run, now } = context;
  const reference = { id: flow.publicId, name: flow.name };
  switch (transition.change) {
    case 'raised': {
      const alert = await locked.insert({
        userId: flow.userId,
        targetId: null,
        flowId: flow.id,
        type: transition.type,
        severity: transition.severity,
        details: { ...transition.details, flow: reference },
        ...flowPage(run),
        region: run.region,
        scanPublicId: run.publicId,
        createdAt: now,
      });
      return alert.id;
    }
    case 'escalated':
      await locked.escalate(
        transition.alertId,
        {
          severity: transition.severity,
          details: { ...transition.details, flow: reference },
          scanPublicId: run.publicId,
        },
        now,
      );
      return transition.alertId;
    case 'resolved':
      await locked.resolve(
        transition.alertId,
        {
          details: {
            ...context.unresolved.find((a) => a.id === transition.alertId)!.details,
            resolution: transition.resolution,
          },
          scanPublicId: run.publicId,
        },
        now,
      );
      return transition.alertId;
  }
}
