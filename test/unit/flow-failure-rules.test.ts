import { scoreAlertNotice } from '../../core/alert-destinations/notice.ts';
import { failedStep } from '../../core/flows/definition.ts';
import type { FailedStep, FlowDefinition } from '../../core/flows/flow.ts';
import { alertText } from '../../core/i18n/alerts.ts';
import { composeAlertEmail } from '../../core/monitoring/alert-email.ts';
import { flowFailureTransition, type OpenFlowFailure } from '../../core/monitoring/flow-failure-rules.ts';
import { alertPayload } from '../../core/webhooks/payloads.ts';
import { payloadProblems } from '../../core/webhooks/schemas.ts';
import { testAlert } from './alert-fixture.ts';

/** flow_failed: each row of the state table in docs/monitoring-and-alerts.md, then its words and deliveries. */

const DEFINITION: FlowDefinition = {
  name: 'Shop sign-in',
  form_factor: 'desktop',
  steps: [
    { type: 'navigate', url: 'https://shop.example/login', name: 'Open sign-in' },
    { type: 'click', selector: '#sign-in' },
    { type: 'wait_for_selector', selector: '#signed-in' },
  ],
};
const AT_STEP_2 = failedStep(
  {
    index: 2,
    step_type: 'wait_for_selector',
    code: 'selector_not_found',
    message: 'no element matches "#signed-in" within 10 s',
  },
  DEFINITION,
);
const RUN_ERROR: FailedStep = failedStep(
  { index: null, step_type: null, code: 'run_error', message: 'The run failed after several attempts.' },
  DEFINITION,
);
const RUN_A = 'a'.repeat(26);
const RUN_B = 'b'.repeat(26);

const open = (severity: 'warning' | 'critical', raisedBy = RUN_A): OpenFlowFailure => ({
  id: 9,
  type: 'flow_failed',
  severity,
  details: { score: 'overall', value: severity === 'warning' ? 1 : 2, reference: 2, failedStep: AT_STEP_2 },
  createdAt: new Date('2026-12-08T03:00:00Z'),
  scanPublicId: raisedBy,
});

describe('flowFailureTransition', () => {
  it('F1: a run that got through, with nothing open, changes nothing', () => {
    expect(flowFailureTransition({ publicId: RUN_A, failedStep: null }, undefined)).toEqual([]);
  });

  it('F2: a failed run raises a warning naming the step, or the run for a run_error', () => {
    expect(flowFailureTransition({ publicId: RUN_A, failedStep: AT_STEP_2 }, undefined)).toEqual([
      {
        change: 'raised',
        type: 'flow_failed',
        severity: 'warning',
        details: { score: 'overall', value: 1, reference: 2, failedStep: AT_STEP_2 },
      },
    ]);
    expect(AT_STEP_2).toEqual({
      index: 2,
      step_type: 'wait_for_selector',
      step: 'wait for #signed-in',
      code: 'selector_not_found',
      message: 'no element matches "#signed-in" within 10 s',
    });
    const [raised] = flowFailureTransition({ publicId: RUN_A, failedStep: RUN_ERROR }, undefined);
    expect(raised).toMatchObject({ change: 'raised', severity: 'warning' });
    expect(RUN_ERROR).toMatchObject({ index: null, step: 'the run', code: 'run_error' });
  });

  it('F3: the run that raised it, judged again, changes nothing', () => {
    expect(flowFailureTransition({ publicId: RUN_A, failedStep: AT_STEP_2 }, open('warning'))).toEqual([]);
  });

  it('F4: the next run failing too escalates it to critical, with that run’s step', () => {
    expect(flowFailureTransition({ publicId: RUN_B, failedStep: RUN_ERROR }, open('warning'))).toEqual([
      {
        change: 'escalated',
        alertId: 9,
        type: 'flow_failed',
        severity: 'critical',
        details: { score: 'overall', value: 2, reference: 2, failedStep: RUN_ERROR },
      },
    ]);
  });

  it('F5: a critical one stays as it is while runs keep failing', () => {
    expect(flowFailureTransition({ publicId: RUN_B, failedStep: AT_STEP_2 }, open('critical', RUN_A))).toEqual([]);
  });

  it('F6: the next run that gets through resolves it, warning or critical', () => {
    for (const severity of ['warning', 'critical'] as const)
      expect(flowFailureTransition({ publicId: RUN_B, failedStep: null }, open(severity))).toEqual([
        { change: 'resolved', alertId: 9, type: 'flow_failed', resolution: { kind: 'recovered', value: 0 } },
      ]);
  });
});

describe('a flow_failed alert as people and receivers see it', () => {
  const alert = testAlert({
    targetId: null,
    type: 'flow_failed',
    severity: 'warning',
    url: 'https://shop.example/login',
    host: 'shop.example',
    scanPublicId: RUN_A,
    details: {
      score: 'overall',
      value: 1,
      reference: 2,
      failedStep: AT_STEP_2,
      flow: { id: 'f'.repeat(26), name: 'Shop sign-in' },
    },
  });
  const critical = {
    ...alert,
    severity: 'critical' as const,
    scanPublicId: RUN_B,
    details: { ...alert.details, value: 2, failedStep: RUN_ERROR },
  };
  const resolved = {
    ...alert,
    resolvedAt: new Date('2026-12-09T03:00:00Z'),
    resolvedScanPublicId: RUN_B,
    details: { ...alert.details, resolution: { kind: 'recovered' as const, value: 0 } },
  };

  it('names the flow, the step and the reason, in English and German', () => {
    expect(alertText(alert, 'en')).toEqual({
      title: 'Flow “Shop sign-in” failed at step 2 (wait for #signed-in)',
      message:
        'The run of the flow “Shop sign-in” on shop.example/login stopped at step 2 (wait for #signed-in): no element matches "#signed-in" within 10 s.',
    });
    expect(alertText(alert, 'de')).toEqual({
      title: 'Ablauf „Shop sign-in“ bei Schritt 2 fehlgeschlagen (wait for #signed-in)',
      message:
        'Der Lauf des Ablaufs „Shop sign-in“ auf shop.example/login hat bei Schritt 2 (wait for #signed-in) angehalten: no element matches "#signed-in" within 10 s.',
    });
  });

  it('critical says how many runs failed in a row; a run_error names no step; resolved says a run got through', () => {
    expect(alertText(critical, 'en')).toEqual({
      title: 'Flow “Shop sign-in” failed',
      message:
        'The run of the flow “Shop sign-in” on shop.example/login could not be completed: The run failed after several attempts. It failed on 2 runs in a row.',
    });
    expect(alertText(critical, 'de').message).toBe(
      'Der Lauf des Ablaufs „Shop sign-in“ auf shop.example/login konnte nicht abgeschlossen werden: The run failed after several attempts. Er ist 2 Läufe in Folge fehlgeschlagen.',
    );
    expect(alertText(resolved, 'en').message).toMatch(/ Resolved: the next run got through without failing\.$/);
    expect(alertText(resolved, 'de').message).toMatch(/ Behoben: Der nächste Lauf ist ohne Fehler durchgelaufen\.$/);
  });

  it('its webhooks carry the flow and the failed step, valid against their schemas', () => {
    const triggered = alertPayload(alert, 'alert.triggered', 'en');
    expect(triggered).toMatchObject({
      type: 'flow_failed',
      scan_public_id: RUN_A,
      flow: { id: 'f'.repeat(26), name: 'Shop sign-in' },
      failed_step: AT_STEP_2,
    });
    expect(payloadProblems('alert.triggered', triggered)).toBeNull();
    const resolvedPayload = alertPayload(resolved, 'alert.resolved', 'de');
    expect(resolvedPayload).toMatchObject({ scan_public_id: RUN_B, failed_step: AT_STEP_2 });
    expect(payloadProblems('alert.resolved', resolvedPayload)).toBeNull();
    expect(payloadProblems('alert.triggered', alertPayload(critical, 'alert.triggered', 'en'))).toBeNull();
  });

  it('its e-mail and chat message link to the flow run, and the chat facts are the step', () => {
    const email = composeAlertEmail(
      alert,
      'raised',
      { email: 'a@b.example', name: 'A', locale: 'en' },
      'https://w.example',
    );
    expect(email.text).toContain(`https://w.example/flows/${'f'.repeat(26)}/runs/${RUN_A}`);
    expect(email.subject).toBe(
      '[Warning] Flow “Shop sign-in” failed at step 2 (wait for #signed-in) – shop.example/login',
    );
    const notice = scoreAlertNotice(resolved, 'resolved', 'en');
    expect(notice.link.path).toBe(`/flows/${'f'.repeat(26)}/runs/${RUN_B}`);
    expect(notice.facts.map((fact) => fact.label)).toEqual(['Failed step', 'Flow', 'Region']);
  });
});
