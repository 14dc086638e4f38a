import type { ScheduleDescription } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { targetScheduleId } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import type { FixtureSites } from '../../fixtures/sites.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { waitUntil } from '../../stack/proc.ts';
import type { TargetScanOutcome } from '../../workflows/target-scan.ts';
import { call, createTestUser } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { waitForScan, type ScanStack } from '../harness/scans.ts';
import type { TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/** What these cases need of the stack they share (test/targets/target-runs.test.ts): its worker sends e-mail to `smtp`. */
export interface BudgetAlertStack {
  stack: ScanStack;
  sites: FixtureSites;
  smtp: TestSmtpServer;
}

/**
 * Budget alerts end to end: a target with a budget its page cannot meet, scanned by its real schedule (Temporal,
 * a real worker process replaying the fixture page's recorded Lighthouse run), raises metric_over_budget with its
 * e-mail (real SMTP) and its alert.triggered webhook (a real receiver); the budget relaxed through the API, the
 * next scheduled scan resolves it, with its e-mail and alert.resolved. A minimum for one of Lighthouse's category
 * scores does the same.
 */
export function budgetAlertCases(shared: () => BudgetAlertStack): void {
  describe('budget alerts end to end: raised with e-mail and webhook, resolved on the next scan', () => {
    let stack: ScanStack;
    let sites: FixtureSites;
    let smtp: TestSmtpServer;
    // Only these cases' user sends webhooks here: every request it receives is theirs.
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      ({ stack, sites, smtp } = shared());
      receiver = await webhookReceiver();
    });
    afterAll(async () => {
      await receiver?.close();
    });

    /** Triggers the target's schedule and waits for that run (the scan and the alert evaluation after it) to end. */
    async function scheduledScan(targetId: number): Promise<string> {
      const handle = stack.api.temporal.schedule.getHandle(
        targetScheduleId(stack.api.config.temporal.taskQueuePrefix, targetId),
      );
      const before = (await handle.describe()).info.numActionsTaken;
      await handle.trigger();
      let described: ScheduleDescription | undefined;
      await waitUntil(
        `schedule of target ${targetId} to start a run`,
        async () => {
          described = await handle.describe();
          return described.info.numActionsTaken > before && described.info.recentActions.length > 0;
        },
        60_000,
        250,
      );
      const runId = described!.info.recentActions.at(-1)!.action.workflow.workflowId;
      const outcome = (await stack.api.temporal.workflow.getHandle(runId).result()) as TargetScanOutcome;
      if (!outcome.dispatched || outcome.outcome.status !== 'finished')
        throw new Error(`scheduled scan did not finish: ${JSON.stringify(outcome)}`);
      return outcome.scanId;
    }

    it('a budget the page breaks raises metric_over_budget with its e-mail and webhook; relaxing it resolves the alert on the next scan', async () => {
      const { user, token } = await createTestUser(stack.api, 'pro');
      const saved = await saveWebhookSettings(
        {
          webhooks: createStorage(stack.api.db.knex).webhooks,
          keys: stack.api.config.keys,
          allowLoopback: true,
          clock: () => new Date(),
        },
        user,
        { url: receiver.url, headerName: '', headerValue: '', events: ['alert.triggered', 'alert.resolved'] },
      );
      if (saved.status !== 'saved') throw new Error('webhook settings not saved');
      const verify = (body: string, headers: Record<string, string>) =>
        new Webhook(saved.settings.secret).verify(body, headers) as Record<string, unknown>;
      const conforms = await openApiContract(stack.api);

      // No page paints its first content within 1 ms: the mobile FCP budget is broken by far (critical).
      const url = `${sites.origin}/fast/?budgets`;
      const created = await call(stack.api, '/domains', {
        token,
        method: 'POST',
        body: { url, thresholds: { overall: { warning: 1, critical: 0 } }, budgets: { mobile: { fcp_ms: 1 } } },
      });
      expect(created.status).toBe(201);
      const target = created.body.data as { id: number; host: string; budgets: unknown };
      expect(target.budgets).toEqual({ mobile: { fcp_ms: 1 } });

      const firstScan = await scheduledScan(target.id);
      const scan = await waitForScan(stack.api, token, firstScan);
      const mobileFcp = (scan.result as { metrics: { mobile: { fcp_ms: number } } }).metrics.mobile.fcp_ms;
      expect(mobileFcp).toBeGreaterThan(1);

      const alerts = await call(stack.api, '/alerts', { token });
      expect(conforms('get', '/alerts', alerts)).toEqual([]);
      const [alert] = (alerts.body.data as Array<Record<string, unknown>>).filter(
        (a) => a.type === 'metric_over_budget',
      );
      expect(alert).toMatchObject({
        type: 'metric_over_budget',
        severity: 'critical',
        title: 'Mobile FCP over budget',
        scan_id: firstScan,
        resolved_at: null,
        target_id: target.id,
        details: {
          value: mobileFcp,
          reference: 1,
          budget: {
            metric: 'fcp_ms',
            form_factor: 'mobile',
            value: mobileFcp,
            budget: 1,
            unit: 'ms',
            severity: 'critical',
          },
          over_budget: [{ metric: 'fcp_ms', form_factor: 'mobile' }],
        },
      });
      const alertId = alert!.id as number;
      expect(alert!.message).toContain(`The mobile FCP of 127.0.0.1/fast/?budgets is`);

      // The e-mail (sent by the worker's e-mail workflow) and the webhook (the webhook worker).
      await waitUntil(
        'the raise e-mail',
        async () => smtp.messages.some((m) => m.to.includes(user.email)),
        60_000,
        100,
      );
      const raisedMail = smtp.messages.filter((m) => m.to.includes(user.email)).at(-1)!;
      expect(raisedMail.subject).toBe(`[Critical] Mobile FCP over budget – 127.0.0.1/fast/?budgets`);
      expect(raisedMail.text).toContain('over its budget of 1 ms.');
      expect(raisedMail.text).toContain(`/reports/${firstScan}`);

      const [triggered] = await receiver.waitFor(1, 60_000);
      const triggeredPayload = verify(triggered!.body, triggered!.headers as Record<string, string>);
      expect(triggeredPayload).toMatchObject({
        event: 'alert.triggered',
        alert_id: alertId,
        type: 'metric_over_budget',
        severity: 'critical',
        title: 'Mobile FCP over budget',
        target_url: url,
        host: target.host,
        region: 'local',
        scan_public_id: firstScan,
        budget: {
          metric: 'fcp_ms',
          form_factor: 'mobile',
          value: mobileFcp,
          budget: 1,
          unit: 'ms',
          severity: 'critical',
        },
        over_budget: [{ metric: 'fcp_ms', form_factor: 'mobile', budget: 1 }],
      });

      // Relaxed through the API: the next scheduled scan resolves it.
      const relaxed = await call(stack.api, `/domains/${target.id}`, {
        token,
        method: 'PATCH',
        body: { budgets: { mobile: { fcp_ms: 600_000 } } },
      });
      expect(relaxed.status).toBe(200);
      expect((relaxed.body.data as { budgets: unknown }).budgets).toEqual({ mobile: { fcp_ms: 600_000 } });

      const secondScan = await scheduledScan(target.id);
      const resolved = await call(stack.api, `/alerts/${alertId}`, { token });
      expect(resolved.body.data).toMatchObject({
        type: 'metric_over_budget',
        resolved_at: expect.any(String),
        resolved_scan_id: secondScan,
        details: { resolution: { kind: 'recovered', value: expect.any(Number) } },
      });
      expect((resolved.body.data as { message: string }).message).toContain('Resolved: every budget holds again');

      await waitUntil(
        'the resolved e-mail',
        async () => smtp.messages.some((m) => m.to.includes(user.email) && m.subject.startsWith('[Resolved]')),
        60_000,
        100,
      );
      expect(smtp.messages.filter((m) => m.to.includes(user.email)).at(-1)!.subject).toBe(
        `[Resolved] Mobile FCP over budget – 127.0.0.1/fast/?budgets`,
      );
      const received = await receiver.waitFor(2, 60_000);
      const resolvedPayload = verify(received[1]!.body, received[1]!.headers as Record<string, string>);
      expect(resolvedPayload).toMatchObject({
        event: 'alert.resolved',
        alert_id: alertId,
        type: 'metric_over_budget',
        scan_public_id: secondScan,
        resolved_at: expect.any(String),
        budget: { metric: 'fcp_ms', form_factor: 'mobile', budget: 1 },
      });

      // One budget alert in all; the score thresholds (0 and 1) raised nothing.
      expect(await stack.api.db.knex('alerts').where({ target_id: target.id }).select('type')).toEqual([
        { type: 'metric_over_budget' },
      ]);
    }, 600_000);

    it('a minimum for a Lighthouse category score the page breaks raises the budget alert; lowering it resolves the alert', async () => {
      const { token } = await createTestUser(stack.api, 'pro');
      // The fixture page has no meta description: Lighthouse's SEO score stays under 100.
      const url = `${sites.origin}/fast/?lighthouse-budget`;
      const created = await call(stack.api, '/domains', {
        token,
        method: 'POST',
        body: {
          url,
          thresholds: { overall: { warning: 1, critical: 0 } },
          budgets: { lighthouse: { mobile: { seo: 100 } } },
        },
      });
      expect(created.status).toBe(201);
      const target = created.body.data as { id: number; budgets: unknown };
      expect(target.budgets).toEqual({ lighthouse: { mobile: { seo: 100 } } });

      const firstScan = await scheduledScan(target.id);
      const scan = await waitForScan(stack.api, token, firstScan);
      const seo = (scan.result as { lighthouse: { categories: { mobile: { seo: number } } } }).lighthouse.categories
        .mobile.seo;
      expect(seo).toBeLessThan(100);
      const alerts = await call(stack.api, '/alerts', { token });
      const [alert] = (alerts.body.data as Array<Record<string, unknown>>).filter(
        (a) => a.type === 'metric_over_budget' && a.target_id === target.id,
      );
      expect(alert).toMatchObject({
        title: 'Mobile Lighthouse SEO score below budget',
        scan_id: firstScan,
        resolved_at: null,
        details: {
          value: seo,
          reference: 100,
          budget: { metric: 'seo', form_factor: 'mobile', value: seo, budget: 100, unit: 'points' },
        },
      });

      const lowered = await call(stack.api, `/domains/${target.id}`, {
        token,
        method: 'PATCH',
        body: { budgets: { lighthouse: { mobile: { seo: 50 } } } },
      });
      expect(lowered.status).toBe(200);
      const secondScan = await scheduledScan(target.id);
      const resolved = await call(stack.api, `/alerts/${alert!.id as number}`, { token });
      expect(resolved.body.data).toMatchObject({
        resolved_at: expect.any(String),
        resolved_scan_id: secondScan,
        details: { resolution: { kind: 'recovered', value: seo } },
      });
    }, 600_000);
  });
}
