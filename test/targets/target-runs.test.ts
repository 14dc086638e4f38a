import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { freePort } from '../harness/isolated.ts';
import { startScanStack, type ScanStack } from '../harness/scans.ts';
import { budgetAlertCases } from './budget-alert-flow.cases.ts';
import { targetRunNowCases } from './target-run-now.cases.ts';
import { targetScanCases } from './target-scan.cases.ts';

/**
 * Targets' runs end to end, on one stack for all their cases (the API, a worker process replaying the recorded
 * Lighthouse runs of the fixture pages, their databases, Temporal schedules): starting one costs seconds of CPU.
 * Each set of cases works as users, targets and schedules of its own, and its assertions on rows, e-mails and
 * webhooks are scoped to them. The worker sends e-mail to an SMTP sink, which the budget alerts' cases read.
 */
let stack: ScanStack;
let sites: FixtureSites;
let smtp: TestSmtpServer;
beforeAll(async () => {
  sites = await startFixtureSites();
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  stack = await startScanStack({
    runner: 'replay',
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Alerts <alerts@perf.example.test>' },
  });
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await smtp?.stop();
  await sites?.close();
});

const shared = () => ({ stack, sites, smtp });
targetScanCases(shared);
targetRunNowCases(shared);
budgetAlertCases(shared);
