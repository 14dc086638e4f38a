/**
 * Verdicts benchmark: confirmed regression alerts (core/monitoring/regression-rules.ts) on real scans.
 * Two fixture pages on 127.0.0.1 (fixtures/regression-site.ts): a stable one, and one where a share of page
 * loads runs 1–3 s of main-thread work (TBT jumps by seconds). Each is a monitored target; the benchmark runs
 * their scheduled scans one after another as the schedule would (the `targetScanWorkflow`, with real
 * Lighthouse scans on the real worker and the real alert evaluation against Postgres), each one a "day".
 *
 * 1. `--days` days without any change: must raise no regression alert on either page (false alarms).
 * 2. The stable page gets a hero image 150 KB heavier (about +800 ms of mobile LCP), then, once that alert has
 *    resolved, +300 ms of main-thread work on every load (TBT): each must raise one alert, confirmed by a
 *    confirmation scan, within 2 scheduled scans (detection delay). The bursty page gets the +800 ms too.
 * Prints every scan, then the false alarms, the detection delays and the scans spent on confirmation, and
 * exits 1 when a false alarm was raised or an injected regression was not caught within 2 scheduled scans.
 *
 * The days are scheduled scans, not wall-clock days: the rules look at the order of the target's scans only.
 * `--plan` sets the runs per scheduled scan (free: 1, starter and pro: 3); webhooks are sent on plans that have them.
 *
 *   ./svc stack up && npm run bench:verdicts -- [--days 30] [--plan free|starter|pro] [--burst-share 0.3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { hasFeature, planFor, type PlanKey } from '../core/plans.ts';
import { mainTaskQueue, targetConfirmWorkflowId } from '../core/temporal.ts';
import type { AlertDetails } from '../core/monitoring/alert.ts';
import { startRegressionSite } from '../fixtures/regression-site.ts';
import { saveWebhookSettings } from '../services/webhook-settings.ts';
import { createStorage } from '../db/store/index.ts';
import { freePort } from '../stack/ports.ts';
import { testSmtpServer } from '../fixtures/smtp.ts';
import { webhookReceiver } from '../fixtures/webhook-receiver.ts';
import type { TargetScanOutcome } from '../workflows/target-scan.ts';
import type { TargetConfirmOutcome } from '../workflows/target-confirm.ts';
import { benchDatabase, benchUser, startBenchServices } from './support.ts';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    plan: { type: 'string', default: 'free' },
    'burst-share': { type: 'string', default: '0.3' },
  },
});
const days = Number(values.days);
const plan = values.plan as PlanKey;
const webhooks = hasFeature(planFor(plan), 'webhooks');
const REGRESSION_TYPES = ['score_regression', 'metric_regression'];

const db = await benchDatabase('verdicts');
const assetsDir = mkdtempSync(join(tmpdir(), 'bench-verdicts-'));
const smtp = testSmtpServer(await freePort());
await smtp.start();
const receiver = await webhookReceiver();
const site = await startRegressionSite({ burstShare: Number(values['burst-share']) });
const services = await startBenchServices(db.databaseUrl, assetsDir, {
  SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  MAIL_FROM: 'Alerts <alerts@bench.example.test>',
});
const connection = await Connection.connect({ address: services.config.temporal.address });
const temporal = new Client({ connection, namespace: services.config.temporal.namespace });
const queue = mainTaskQueue(services.config.temporal.taskQueuePrefix);

interface Tally {
  scheduled: number;
  confirmations: number;
  falseAlarms: number;
}
type RegressionPage = 'stable' | 'bursty';
const tallies: Record<RegressionPage, Tally> = {
  stable: { scheduled: 0, confirmations: 0, falseAlarms: 0 },
  bursty: { scheduled: 0, confirmations: 0, falseAlarms: 0 },
};
const injections: Array<{ name: string; detectedAfter: number | null; confirmations: number; alert: string }> = [];
let failed = false;

try {
  const { userId } = await benchUser(db.knex, plan);
  await db.knex('users').where({ id: userId }).update({ email_verified_at: new Date() });
  if (webhooks) {
    const saved = await saveWebhookSettings(
      {
        webhooks: createStorage(db.knex).webhooks,
        keys: services.config.keys,
        allowLoopback: true,
        clock: () => new Date(),
      },
      { id: userId, plan },
      { url: receiver.url, headerName: '', headerValue: '', events: ['alert.triggered', 'alert.resolved'] },
    );
    if (saved.status !== 'saved') throw new Error(`webhook settings not saved: ${JSON.stringify(saved)}`);
  }
  const targets = {} as Record<RegressionPage, number>;
  for (const page of ['stable', 'bursty'] as const) {
    const [row] = await db
      .knex('scan_targets')
      .insert({
        user_id: userId,
        url: site.url(page),
        host: '127.0.0.1',
        region: 'local',
        thresholds: JSON.stringify({}),
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returning('id');
    targets[page] = Number((row as { id: number }).id);
  }

  const openRegressions = async (page: RegressionPage) =>
    db
      .knex('alerts')
      .where({ target_id: targets[page] })
      .whereIn('type', REGRESSION_TYPES)
      .whereNull('resolved_at')
      .select<Array<{ id: number; type: string; severity: string; details: AlertDetails }>>(
        'id',
        'type',
        'severity',
        'details',
      );

  /** One scheduled scan of the page as its schedule runs it, and the confirmation it started, if any. */
  async function scheduledScan(page: RegressionPage, label: string) {
    const targetId = targets[page];
    const before = await db.knex('alerts').where({ target_id: targetId }).whereIn('type', REGRESSION_TYPES).count();
    const started = performance.now();
    const outcome = (await temporal.workflow.execute('targetScanWorkflow', {
      taskQueue: queue,
      workflowId: `bench-verdicts-${targetId}-${label}-${Date.now()}`,
      args: [{ targetId }],
    })) as TargetScanOutcome;
    if (!outcome.dispatched) throw new Error('scan not dispatched');
    tallies[page].scheduled += 1;
    let confirmation: TargetConfirmOutcome | null = null;
    try {
      const handle = temporal.workflow.getHandle(targetConfirmWorkflowId(targetId, outcome.scanId));
      confirmation = (await handle.result()) as TargetConfirmOutcome;
      tallies[page].confirmations += 1;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
    const after = await db.knex('alerts').where({ target_id: targetId }).whereIn('type', REGRESSION_TYPES).count();
    const raised = Number(after[0]!.count) - Number(before[0]!.count);
    const scan = (await db.knex('scans').where({ public_id: outcome.scanId }).first('result', 'status')) as {
      status: string;
      result: { metrics: Record<string, { lcp_ms: number; tbt_ms: number }>; scores: { overall: number } } | null;
    };
    const m = scan.result?.metrics;
    const confirmed =
      confirmation && confirmation.dispatched && confirmation.evaluation
        ? `confirmation ${confirmation.scanId.slice(-6)}: ${confirmation.evaluation.confirmed.join(', ') || 'not confirmed'}`
        : confirmation
          ? 'confirmation did not finish'
          : '';
    console.log(
      `${label.padEnd(16)} ${page.padEnd(6)} ${scan.status.padEnd(8)} ` +
        (m
          ? `LCP m ${String(m.mobile!.lcp_ms).padStart(5)} d ${String(m.desktop!.lcp_ms).padStart(5)}  TBT m ${String(m.mobile!.tbt_ms).padStart(5)} d ${String(m.desktop!.tbt_ms).padStart(5)}  score ${String(scan.result!.scores.overall).padStart(3)}`
          : ''.padEnd(60)) +
        `  ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s  ${confirmed}${raised ? `  ALERT RAISED (${raised})` : ''}`,
    );
    return { raised, confirmation };
  }

  console.log(
    `verdicts: ${days} days of scheduled scans of a stable and a bursty page (${plan} plan), then injected regressions\n`,
  );
  for (let day = 1; day <= days; day++) {
    for (const page of ['stable', 'bursty'] as const) {
      const { raised } = await scheduledScan(page, `day ${day}`);
      tallies[page].falseAlarms += raised;
    }
  }

  async function inject(
    name: string,
    page: RegressionPage,
    change: Parameters<typeof site.set>[1],
    undo: Parameters<typeof site.set>[1],
  ) {
    const confirmationsBefore = tallies[page].confirmations;
    site.set(page, change);
    let detectedAfter: number | null = null;
    for (let n = 1; n <= 2 && detectedAfter === null; n++) {
      const { raised } = await scheduledScan(page, `${name} #${n}`);
      if (raised) detectedAfter = n;
    }
    const [alert] = await openRegressions(page);
    const facts = alert?.details.regression;
    injections.push({
      name,
      detectedAfter,
      confirmations: tallies[page].confirmations - confirmationsBefore,
      alert: facts
        ? `${alert!.type} ${alert!.severity}: ${facts.form_factor ?? ''} ${facts.metric} ${facts.baseline} → ${facts.current} (HL ${Math.round(facts.shift * 10) / 10}, p ${facts.p_value.toFixed(4)}, ${facts.baseline_scans} scans${facts.also ? `; also ${facts.also.join(', ')}` : ''})`
        : 'none',
    });
    if (detectedAfter === null) failed = true;
    site.set(page, undo);
    // Back to normal: scheduled scans until the alert has resolved (at most 3).
    for (let n = 1; n <= 3 && (await openRegressions(page)).length; n++)
      await scheduledScan(page, `${name} undo #${n}`);
  }

  // A hero image 150 KB heavier: about +800 ms of mobile LCP (+120 ms desktop) under simulated throttling.
  await inject('+800 ms LCP', 'stable', { heroSide: 250 }, { heroSide: 0 });
  await inject('+300 ms main thread', 'stable', { mainThreadMs: 300 }, { mainThreadMs: 0 });
  await inject('+800 ms LCP (bursty page)', 'bursty', { heroSide: 250 }, { heroSide: 0 });

  // Let the e-mails and webhooks of the raised alerts arrive.
  const alertCount = Number(
    (await db.knex('alerts').where({ user_id: userId }).whereIn('type', REGRESSION_TYPES).count())[0]!.count,
  );
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && smtp.messages.filter((m) => !m.subject.startsWith('[Resolved')).length < alertCount)
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));

  console.log(`\n| page | scheduled scans | confirmation scans | false alarms (days 1-${days}) |`);
  console.log('|---|---|---|---|');
  for (const page of ['stable', 'bursty'] as const) {
    const t = tallies[page];
    console.log(`| ${page} | ${t.scheduled} | ${t.confirmations} | ${t.falseAlarms} |`);
    if (t.falseAlarms) failed = true;
  }
  console.log(
    `(bursty page: ${site.loads('bursty').bursts} of ${site.loads('bursty').loads} loads burst, 1-3 s of main-thread work each)`,
  );
  console.log('\n| injected regression | detected after (scheduled scans) | confirmation scans | alert |');
  console.log('|---|---|---|---|');
  for (const i of injections)
    console.log(`| ${i.name} | ${i.detectedAfter ?? 'not within 2'} | ${i.confirmations} | ${i.alert} |`);
  console.log(
    `\nregression alerts raised: ${alertCount}; alert e-mails: ${smtp.messages.length} (${smtp.messages.map((m) => m.subject).join(' | ')})`,
  );
  if (webhooks) console.log(`webhooks received: ${receiver.received.length}`);
} finally {
  await connection.close();
  await services.close();
  await site.close();
  await receiver.close();
  await smtp.stop();
  await db.drop();
  rmSync(assetsDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
