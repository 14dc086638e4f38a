import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { AccountDeletionReport } from '../../core/account-deletion.ts';
import { accountDeletionWorkflowId } from '../../core/temporal.ts';
import { newPublicId } from '../../core/ids.ts';
import { createStorage } from '../../db/store/index.ts';
import { resultScoring } from '../../fixtures/finished-scan.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { startAccountDeletionWorkflow } from '../../infra/temporal-client.ts';
import { assetUrl } from '../../services/assets.ts';
import { sweepExpiredLighthouseReports } from '../../services/lighthouse-reports.ts';
import { s3AssetStore } from '../../services/s3-assets.ts';
import { call, createTestUser } from '../harness/api.ts';
import { freePort } from '../harness/isolated.ts';
import { startReady, type RunningService } from '../harness/processes.ts';
import { startS3Server, type S3TestServer } from '../harness/s3-server.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * The S3 backend of the asset store against a real S3-compatible server (moto), with real scans (the worker
 * process, Lighthouse in Chromium): images land in the bucket and nowhere on disk; the API serves them through
 * its own signed URLs, and so does a second API process with an empty asset folder (the machines share the
 * bucket); account deletion removes them, Lighthouse's retention leaves them; a missing object is a 404; an
 * unreachable bucket fails the scan as an unwritable folder does, and image reads answer 503.
 */
let s3: S3TestServer;
let sites: FixtureSites;
let stack: ScanStack;
let second: RunningService | null = null;
const emptyDir = mkdtempSync(join(tmpdir(), 'webperf-s3-empty-'));

beforeAll(async () => {
  [s3, sites] = await Promise.all([startS3Server(), startFixtureSites()]);
  stack = await startScanStack({ runner: 'replay', env: s3.env });
}, 120_000);

afterAll(async () => {
  await second?.stop();
  await stack?.close();
  await sites?.close();
  await s3?.stop();
  rmSync(emptyDir, { recursive: true, force: true });
});

async function scan(token: string, path: string): Promise<string> {
  const created = await call(stack.api, '/scans', {
    token,
    method: 'POST',
    body: { url: `${sites.origin}${path}`, public: false },
  });
  expect(created.status).toBe(202);
  return (created.body.data as { id: string }).id;
}

async function object(key: string): Promise<Buffer> {
  const found = await s3.client.send(new GetObjectCommand({ Bucket: s3.config.bucket, Key: key }));
  return Buffer.from(await found.Body!.transformToByteArray());
}

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('with the S3 backend', () => {
  let owner: { user: { id: number }; token: string };
  let scanId: string;
  let desktopUrl: string;

  it("stores a real scan's images in the bucket, none on disk, and serves them through the API's signed URLs", async () => {
    owner = await createTestUser(stack.api, 'pro');
    scanId = await scan(owner.token, '/fast/');
    const detail = await waitForScan(stack.api, owner.token, scanId);
    expect(detail.status).toBe('finished');

    const keys = await s3.keys(`scans/${scanId}/`);
    expect(keys).toEqual(
      expect.arrayContaining([`scans/${scanId}/desktop-final.jpg`, `scans/${scanId}/mobile-final.jpg`]),
    );
    expect(keys.some((key) => /\/desktop-frame-\d+\.jpg$/.test(key))).toBe(true);
    expect(readdirSync(stack.workerEnv.ASSETS_DIR!)).toEqual([]);

    const screenshots = (detail.result as { screenshots: { desktop_url: string } }).screenshots;
    desktopUrl = screenshots.desktop_url;
    expect(desktopUrl).toMatch(new RegExp(`/assets/${scanId}/desktop-final\\.jpg\\?expires=\\d+&signature=`));
    const res = await fetch(desktopUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(await bytes(res)).toEqual(await object(`scans/${scanId}/desktop-final.jpg`));

    // Our access rules, not the bucket's: no signature or a forged one is a 404.
    expect((await fetch(desktopUrl.split('?')[0]!)).status).toBe(404);
    expect((await fetch(desktopUrl.replace(/signature=[^&]+/, 'signature=x.y'))).status).toBe(404);
  }, 240_000);

  it('serves the same images from a second API process with the same bucket and an empty asset folder', async () => {
    const port = await freePort();
    second = await startReady('api', {
      ...baseTestEnv(),
      ...s3.env,
      DATABASE_URL: stack.api.db.databaseUrl,
      TEMPORAL_TASK_QUEUE_PREFIX: stack.api.config.temporal.taskQueuePrefix,
      API_PORT: String(port),
      API_METRICS_PORT: String(await freePort()),
      BASE_URL: `http://127.0.0.1:${port}`,
      ASSETS_DIR: emptyDir,
    });
    const path = desktopUrl.slice(stack.api.url.length);
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    expect(res.status).toBe(200);
    expect(await bytes(res)).toEqual(await object(`scans/${scanId}/desktop-final.jpg`));
    expect(readdirSync(emptyDir)).toEqual([]);
  }, 120_000);

  it('answers 404, not 500, for an image the bucket does not have', async () => {
    const signed = assetUrl(
      stack.api.url,
      stack.api.config.keys,
      { publicId: scanId, isPublic: false, shareEnabled: false, shareToken: null },
      'desktop-frame-99.jpg',
      new Date(),
      'owner',
    );
    expect((await fetch(signed)).status).toBe(404);
    expect((await fetch(`${stack.api.url}/assets/${scanId}/..%2Fx.jpg`)).status).toBe(404);
  });

  it("keeps the images when Lighthouse's retention deletes the scan's Lighthouse results", async () => {
    const storage = createStorage(stack.api.db.knex);
    const later = new Date(Date.now() + 400 * 24 * 3600_000);
    expect(await sweepExpiredLighthouseReports(storage.lighthouseReports, later)).toBeGreaterThanOrEqual(2);
    expect(await s3.keys(`scans/${scanId}/`)).toContain(`scans/${scanId}/desktop-final.jpg`);
  });

  it("account deletion removes every object of the account's scans, and no one else's", async () => {
    const store = s3AssetStore(s3.config);
    const otherScan = '0000000000000000000000abcd';
    await store.put(otherScan, 'desktop-final.jpg', Buffer.from('other'));
    const storage = createStorage(stack.api.db.knex);
    expect(await storage.accountData.close(owner.user.id, new Date())).toBe(true);
    const prefix = stack.api.config.temporal.taskQueuePrefix;
    await startAccountDeletionWorkflow(stack.api.temporal, prefix, owner.user.id);
    const report = (await stack.api.temporal.workflow
      .getHandle(accountDeletionWorkflowId(prefix, owner.user.id))
      .result()) as AccountDeletionReport;
    expect(report.scanImageFolders).toBe(1);
    expect(await s3.keys(`scans/${scanId}/`)).toEqual([]);
    expect(await s3.keys(`scans/${otherScan}/`)).toEqual([`scans/${otherScan}/desktop-final.jpg`]);
    expect((await fetch(desktopUrl)).status).toBe(404);
  }, 120_000);

  it('removes a scan of more than one page of keys (1000) in batches', async () => {
    const store = s3AssetStore(s3.config);
    const id = '0000000000000000000000bbbb';
    const names = Array.from({ length: 1010 }, (_, i) => `frame-${i}.jpg`);
    for (let i = 0; i < names.length; i += 50)
      await Promise.all(names.slice(i, i + 50).map((name) => store.put(id, name, Buffer.from(name))));
    expect(await s3.keys(`scans/${id}/`)).toHaveLength(1000); // one listing page
    expect(await store.remove(id)).toBe(true);
    expect(await s3.keys(`scans/${id}/`)).toEqual([]);
    expect(await store.remove(id)).toBe(false);
  }, 120_000);

  it('with the bucket unreachable, image reads answer 503 and a scan fails as with an unwritable folder', async () => {
    const { user, token } = await createTestUser(stack.api, 'pro');
    // A finished public scan with its image in the bucket (the first test stored a real scan's images already).
    const publicScan = newPublicId();
    await stack.api.db.knex('scans').insert({
      public_id: publicScan,
      user_id: user.id,
      url: `${sites.origin}/fast/`,
      host: '127.0.0.1',
      region: stack.api.config.regions.default,
      is_public: true,
      status: 'finished',
      requested_at: new Date(),
      started_at: new Date(),
      finished_at: new Date(),
      runs: 1,
      result: JSON.stringify(resultScoring(90, { url: `${sites.origin}/fast/` })),
    });
    await s3AssetStore(s3.config).put(publicScan, 'desktop-final.jpg', Buffer.from('a JPEG'));
    expect((await fetch(`${stack.api.url}/assets/${publicScan}/desktop-final.jpg`)).status).toBe(200);
    await s3.stop();

    const image = await fetch(`${stack.api.url}/assets/${publicScan}/desktop-final.jpg`);
    expect(image.status).toBe(503);
    expect(image.headers.get('retry-after')).toBe('30');
    expect(stack.api.logs()).toContain(
      `asset store: reading scans/${publicScan}/desktop-final.jpg failed on S3 bucket`,
    );

    const id = await scan(token, '/fast/');
    expect(await waitForScan(stack.api, token, id, 300_000)).toMatchObject({
      status: 'failed',
      error: { code: 'scan_error' },
    });
    const logged = stack.worker
      .output()
      .split('\n')
      .filter((line) => line.includes(`"scanId":"${id}"`) && line.includes('scan attempt failed'));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged[0]).toContain(`asset store: storing scans/${id}/`);
    expect(logged[0]).toContain(`failed on S3 bucket \\"${s3.config.bucket}\\" at ${s3.config.endpoint}`);
  }, 360_000);
});
