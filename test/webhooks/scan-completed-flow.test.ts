import { Webhook } from 'standardwebhooks';
import type { RunnerResult, ScanRunner } from '../../activities/scan-runner.ts';
import { createStorage } from '../../db/store/index.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { waitForScan } from '../harness/scans.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { cleanObservation } from '../unit/observation-builder.ts';

/** A scan submitted through the API and run by the scan workflow: its end commits the scan.completed event, which arrives at the receiver. */
let api: TestApi;
let worker: InProcessWorker;
let receiver: WebhookReceiver;
const standIn: ScanRunner = {
  run: async ({ url }): Promise<RunnerResult> => ({
    kind: 'observation',
    observation: cleanObservation({ requestedUrl: url, finalUrl: url }),
    images: [],
  }),
};

beforeAll(async () => {
  api = await startTestApi();
  worker = await startInProcessWorker(api, { runner: standIn });
  receiver = await webhookReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await worker?.close();
  await api?.close();
});

it("a finished scan sends scan.completed to its owner's endpoint, once", async () => {
  const { user, token } = await createTestUser(api, 'pro');
  const saved = await saveWebhookSettings(
    {
      webhooks: createStorage(api.db.knex).webhooks,
      keys: api.config.keys,
      allowLoopback: true,
      clock: () => new Date(),
    },
    user,
    { url: receiver.url, headerName: '', headerValue: '', events: ['scan.completed'] },
  );
  if (saved.status !== 'saved') throw new Error('settings not saved');
  const created = await call(api, '/scans', { token, method: 'POST', body: { url: 'https://completed.example/page' } });
  expect(created.status).toBe(202);
  const id = (created.body.data as { id: string }).id;
  const scan = await waitForScan(api, token, id);
  expect(scan.status).toBe('finished');
  const [request] = await receiver.waitFor(1);
  const payload = new Webhook(saved.settings.secret).verify(
    request!.body,
    request!.headers as Record<string, string>,
  ) as Record<string, unknown>;
  const scores = (scan.result as { scores: Record<string, number> }).scores;
  expect(payload).toMatchObject({
    event: 'scan.completed',
    url: 'https://completed.example/page',
    score: scores.overall,
    score_tech: scores.technical,
    scan_url: `${api.config.baseUrl}/reports/${id}`,
    scanned_at: scan.finished_at,
  });
  expect(receiver.received).toHaveLength(1);
});
