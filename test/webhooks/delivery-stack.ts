import { createStorage, type Storage } from '../../db/store/index.ts';
import type { HostLookup } from '../../infra/scan-target.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { freePort } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';

/** Retry waits of 20 ms, so a delivery's whole schedule runs in moments. */
export const SHORT_SCHEDULE = [20, 20, 20, 20, 20, 20, 20];

/**
 * What the webhook and alert-destination delivery tests share: an SMTP server, the API on a test clock that
 * mails alerts through it, an in-process worker that delivers with the short schedule, resolving hosts with the
 * test's `lookup`, and the stores.
 */
export interface DeliveryStack {
  smtp: TestSmtpServer;
  clock: TestClock;
  api: TestApi;
  worker: InProcessWorker;
  storage: Storage;
  close(): Promise<void>;
}

export async function startDeliveryStack(lookup: HostLookup): Promise<DeliveryStack> {
  const smtp = testSmtpServer(await freePort());
  await smtp.start();
  const clock = new TestClock(new Date());
  let api: TestApi | undefined;
  try {
    api = await startTestApi({
      clock,
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Alerts <alerts@perf.example.test>' },
    });
    const worker = await startInProcessWorker(api, { webhooks: { schedule: SHORT_SCHEDULE, lookup, timeoutMs: 3000 } });
    const started = api;
    return {
      smtp,
      clock,
      api,
      worker,
      storage: createStorage(api.db.knex),
      async close() {
        await worker.close();
        await started.close();
        await smtp.stop();
      },
    };
  } catch (error) {
    await api?.close();
    await smtp.stop();
    throw error;
  }
}
