import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { createReconcileActivities } from '../../activities/reconcile.ts';
import { LIVE_DATA_SETTLE_MS, type AccountDeletionReport } from '../../core/account-deletion.ts';
import { newPublicId } from '../../core/ids.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import {
  accountDeletionWorkflowId,
  mainTaskQueue,
  scanWorkflowId,
  webhookDeliveryWorkflowId,
} from '../../core/temporal.ts';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import { countRumRows } from '../../db/clickhouse/rum-erase.ts';
import { rumQueries } from '../../db/clickhouse/rum-queries.ts';
import { createStorage, type Storage } from '../../db/store/index.ts';
import { insertRejections, insertRumRows, siteTraffic } from '../../fixtures/rum-dashboard.ts';
import { seedWebArea, SEEDED_PASSWORD, type SampleImages } from '../../fixtures/web-area.ts';
import { createLogger } from '../../infra/logger.ts';
import {
  createTargetSchedule,
  deleteTargetSchedulesOf,
  describeTargetSchedule,
  startAccountDeletionWorkflow,
  terminateIfRunning,
} from '../../infra/temporal-client.ts';
import { prepareAccountExport } from '../../services/account-export.ts';
import { createUser } from '../../services/accounts.ts';
import { localAssetStore } from '../../services/assets.ts';
import { markFinished } from '../../services/scans.ts';
import { emailHash } from '../../services/sign-in-throttle.ts';
import { hashToken, mintToken } from '../../services/tokens.ts';
import { saveWebhookSettings, webhookSettings } from '../../services/webhook-settings.ts';
import { RECONCILE_GRACE_DEFAULT_MS } from '../../core/scan/lifecycle.ts';
import { dataText } from '../../web/account/data-labels.ts';
import { call, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser } from '../harness/browser.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { WebClient } from '../harness/web.ts';
import { cleanObservation, SCANNED_AT } from '../unit/observation-builder.ts';

/**
 * "Your data" end to end against the real Postgres, ClickHouse, Temporal and a worker, in Chromium: the export
 * downloaded in the browser holds every kind of the account's data and none of its secrets; the deletion form
 * refuses a wrong password or confirmation beside the field; a deletion signs the user out and stops sign-in
 * and tokens at once, and its workflow leaves nothing of the user in any Postgres table that references users
 * (found through the catalogue, so a new table is covered), in ClickHouse, in Temporal (schedules, running
 * workflows, on a queue no worker polls) or in the asset store; a second run succeeds; another user's data is untouched.
 */
let api: TestApi;
let clickhouse: IsolatedClickHouse;
let worker: InProcessWorker;
let browser: { browser: Browser; close(): Promise<void> };
let storage: Storage;
const assetsDir = mkdtempSync(join(tmpdir(), 'webperf-deletion-assets-'));
const downloads = mkdtempSync(join(tmpdir(), 'webperf-deletion-downloads-'));
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);
const IMAGES: SampleImages = { desktop: { final: JPEG, frames: [JPEG] }, mobile: { final: JPEG, frames: [JPEG] } };
const HEADER_VALUE = 'Bearer header-value-never-exported-1234';
const text = dataText('en');
const prefix = () => api.config.temporal.taskQueuePrefix;
const sha = (value: string) => createHash('sha256').update(value).digest('hex');

interface Seeded {
  id: number;
  email: string;
  token: string;
  signingSecret: string;
  siteIds: number[];
  targetIds: number[];
  scanIds: string[];
  /** Workflows left running on a queue no worker polls: the deletion must terminate them. */
  workflows: string[];
}
let anna: Seeded;
let bert: Seeded;

/** What seedWebArea leaves lacks: a target schedule, notification settings with a delivery, a grant, running workflows. */
async function addEverything(user: { id: number; email: string }, tag: string): Promise<Seeded> {
  const now = api.clock.read();
  const assets = localAssetStore(assetsDir);
  // A finished scan with its images, a target with its schedule and an alert, a live-data site with rows.
  const publicId = newPublicId(now);
  await storage.scans.insert({
    publicId,
    userId: user.id,
    url: `https://${tag}.example/`,
    host: `${tag}.example`,
    region: api.config.regions.default,
    isPublic: false,
    authType: null,
    authSecret: null,
    requestedAt: now,
    cacheKey: null,
  });
  const observation = cleanObservation();
  await markFinished(storage.scans, publicId, buildResultRecord(observation, scoreScan(observation, SCANNED_AT)), now);
  await assets.put(publicId, 'desktop-final.jpg', JPEG);
  const target = await storage.targets.insert({
    userId: user.id,
    url: `https://${tag}.example/`,
    host: `${tag}.example`,
    region: api.config.regions.default,
    isActive: true,
    thresholds: { overall: { warning: 70, critical: 50 } },
    createdAt: now,
  });
  await storage.alerts.insert({
    userId: user.id,
    targetId: target.id,
    type: 'score_below_threshold',
    severity: 'warning',
    details: { score: 'overall', value: 60, reference: 70 },
    url: target.url,
    host: target.host,
    region: target.region,
    scanPublicId: publicId,
    createdAt: now,
  });
  const site = await storage.rumSites.insert({
    userId: user.id,
    publicId: `${tag}site`.padEnd(20, '0'),
    domain: `www.${tag}.example`,
    sampleRate: 100,
    createdAt: now,
  });
  await insertRumRows(clickhouse.client, siteTraffic({ siteId: site.id, now, pageViews: 40, days: 5, seed: site.id }));
  await insertRejections(clickhouse.client, [
    { siteId: site.id, day: now.toISOString().slice(0, 10), reason: 'origin', beacons: 2 },
  ]);
  // Notification settings with a header value, and a delivery still pending.
  const settingsDeps = {
    webhooks: storage.webhooks,
    keys: api.config.keys,
    allowLoopback: api.config.callbacksAllowLoopback,
    clock: api.clock.read,
  };
  const saved = await saveWebhookSettings(
    settingsDeps,
    { id: user.id, plan: 'pro' },
    {
      url: 'http://127.0.0.1:9/hook',
      headerName: 'Authorization',
      headerValue: HEADER_VALUE,
      events: ['scan.completed'],
    },
  );
  expect(saved.status).toBe('saved');
  const signingSecret = (await webhookSettings(settingsDeps, user.id)).secret;
  registerSecret(signingSecret);
  const delivery = await storage.webhooks.enqueue(
    {
      userId: user.id,
      event: 'ping',
      payload: { event: 'ping', message: 'hi', sent_at: now.toISOString() },
      messageId: `msg-${tag}`,
      at: now,
    },
    ['free', 'starter', 'pro', 'agency'],
  );
  expect(delivery).toBeDefined();
  // An API token and an OAuth grant with an access token it issued.
  const { token } = await mintToken(storage.tokens, user.id, `${tag} token`, null);
  registerSecret(token);
  const grantId = `grant-${tag}`;
  const future = new Date(now.getTime() + 86_400_000);
  for (const [model, key] of [
    ['Grant', grantId],
    ['AccessToken', `access-${tag}`],
  ] as const)
    await storage.oauth.upsert(model, sha(key), {
      payload: { kind: model, accountId: String(user.id), grantId, clientId: 'https://app.example/client.json' },
      grantId,
      accountId: user.id,
      uid: null,
      expiresAt: future,
    });
  await storage.oauth.recordApp({
    grantId,
    userId: user.id,
    clientId: 'https://app.example/client.json',
    name: 'Example app',
    clientIdHost: 'app.example',
    verified: true,
    scopes: ['scans:read'],
    authorisedAt: now,
  });
  // A queued scan and the delivery with workflows that stay running: no worker polls their queue.
  const queued = newPublicId(now);
  await storage.scans.insert({
    publicId: queued,
    userId: user.id,
    url: `https://${tag}.example/queued`,
    host: `${tag}.example`,
    region: api.config.regions.default,
    isPublic: false,
    authType: null,
    authSecret: null,
    requestedAt: now,
    cacheKey: null,
  });
  const workflows = [scanWorkflowId(queued), webhookDeliveryWorkflowId(mainTaskQueue(prefix()), delivery!.id)];
  for (const workflowId of workflows)
    await api.temporal.workflow.start('healthCheckWorkflow', { workflowId, taskQueue: `${prefix()}-unpolled` });
  const targetIds = await storage.accountData.targetIds(user.id);
  for (const id of targetIds) await createTargetSchedule(api.temporal, prefix(), { id, isActive: true });
  const scanIds = (await storage.accountData.scanIdPage(user.id, 0, 1000)).map((scan) => scan.publicId);
  return {
    id: user.id,
    email: user.email,
    token,
    signingSecret,
    siteIds: await storage.accountData.siteIds(user.id),
    targetIds,
    scanIds,
    workflows,
  };
}

/** Every (table, column) with a foreign key to users.id, from the catalogue. */
async function columnsReferencingUsers(): Promise<Array<{ table: string; column: string }>> {
  const { rows } = await api.db.knex.raw<{ rows: Array<{ table: string; column: string }> }>(
    `select kcu.table_name as "table", kcu.column_name as "column"
       from information_schema.referential_constraints rc
       join information_schema.key_column_usage kcu
         on kcu.constraint_name = rc.constraint_name and kcu.constraint_schema = rc.constraint_schema
       join information_schema.constraint_column_usage ccu
         on ccu.constraint_name = rc.unique_constraint_name and ccu.constraint_schema = rc.unique_constraint_schema
      where ccu.table_name = 'users' and ccu.column_name = 'id' and kcu.table_schema = current_schema()
      order by 1, 2`,
  );
  return rows;
}

async function rowsOf(userId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table, column } of await columnsReferencingUsers()) {
    const [row] = await api.db.knex(table).where(column, userId).count<Array<{ count: string }>>({ count: '*' });
    counts[`${table}.${column}`] = Number(row!.count);
  }
  const [user] = await api.db.knex('users').where({ id: userId }).count<Array<{ count: string }>>({ count: '*' });
  counts.users = Number(user!.count);
  return counts;
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${api.url}/login`);
  await page.type('#email', email);
  await page.type('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
}

async function downloaded(): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const file = readdirSync(downloads).find((name) => name.endsWith('.json'));
    if (file) return readFileSync(join(downloads, file), 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no download in ${downloads}: ${readdirSync(downloads).join(', ')}`);
}

const assetFolders = () => new Set(readdirSync(assetsDir));

beforeAll(async () => {
  clickhouse = await isolatedClickHouse();
  api = await startTestApi({ env: { CLICKHOUSE_DATABASE: clickhouse.database, ASSETS_DIR: assetsDir } });
  storage = createStorage(api.db.knex);
  worker = await startInProcessWorker(api);
  browser = await launchBrowser();
  const seeded = await seedWebArea({
    storage,
    assets: localAssetStore(assetsDir),
    region: api.config.regions.default,
    now: api.clock.read(),
    images: IMAGES,
    clickhouse: clickhouse.client,
  });
  anna = await addEverything({ id: seeded.userId, email: seeded.email }, 'anna');
  const other = await createUser(storage.users, {
    name: 'Bert',
    email: 'bert@example.com',
    password: SEEDED_PASSWORD,
    plan: 'pro',
  });
  bert = await addEverything(other, 'bert');
}, 120_000);

afterAll(async () => {
  for (const workflowId of [...(anna?.workflows ?? []), ...(bert?.workflows ?? [])])
    await terminateIfRunning(api.temporal, workflowId, 'test finished').catch(() => undefined);
  if (api) await deleteTargetSchedulesOf(api.temporal, prefix()).catch(() => undefined);
  await browser?.close();
  await worker?.close();
  await api?.close();
  await clickhouse?.drop();
  rmSync(assetsDir, { recursive: true, force: true });
  rmSync(downloads, { recursive: true, force: true });
});

describe('your data', () => {
  it('downloads every kind of the account’s data in the browser, and no secret', async () => {
    const context = await browser.browser.createBrowserContext({
      downloadBehavior: { policy: 'allow', downloadPath: downloads },
    });
    const page = await context.newPage();
    await signIn(page, anna.email, SEEDED_PASSWORD);
    await page.goto(`${api.url}/settings/data`);
    expect(await page.$eval('h1', (h1) => h1.textContent)).toBe(text.title);
    // What the button asks for: a JSON attachment (read through the page's own session).
    const head = await page.evaluate(async () => {
      const response = await fetch('/settings/data/export');
      await response.text();
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        disposition: response.headers.get('content-disposition'),
      };
    });
    expect(head).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      disposition: expect.stringMatching(/^attachment; filename="webperf-account-\d+-[\d-]+\.json"$/),
    });
    await page.click('#export-button');
    const raw = await downloaded();
    await context.close();
    const archive = JSON.parse(raw) as Record<string, unknown> & {
      account: { email: string };
      scans: Array<{ public_id: string; status: string; result: unknown }>;
      targets: unknown[];
      alerts: unknown[];
      liveDataSites: Array<{
        id: number;
        alerts: unknown[];
        liveData: { pageViewsThisMonth: number; daily: Record<string, Array<{ p75: number; samples: number }>> };
      }>;
      webhookSettings: Record<string, unknown>;
      apiTokens: Array<Record<string, unknown>>;
      authorisedApps: Array<Record<string, unknown>>;
    };
    expect(archive.account.email).toBe(anna.email);
    expect(archive.scans.map((scan) => scan.public_id).sort()).toEqual([...anna.scanIds].sort());
    expect(archive.scans.some((scan) => scan.status === 'finished' && scan.result)).toBe(true);
    expect(archive.targets).toHaveLength(anna.targetIds.length);
    expect(archive.alerts.length).toBeGreaterThanOrEqual(5);
    expect(archive.liveDataSites.map((site) => site.id)).toEqual(anna.siteIds);
    const busy = archive.liveDataSites[0]!;
    expect(busy.alerts).toHaveLength(2);
    expect(busy.liveData.pageViewsThisMonth).toBeGreaterThan(0);
    expect(busy.liveData.daily.LCP!.length).toBeGreaterThan(20);
    expect(busy.liveData.daily.LCP![0]!.p75).toBeGreaterThan(0);
    expect(archive.webhookSettings).toMatchObject({ url: 'http://127.0.0.1:9/hook', header_name: 'Authorization' });
    expect(archive.apiTokens.map((token) => token.name)).toEqual(
      expect.arrayContaining(['Deploy pipeline', 'Grafana dashboard', 'anna token']),
    );
    expect(archive.authorisedApps).toEqual([
      expect.objectContaining({ client_id: 'https://app.example/client.json', scopes: ['scans:read'] }),
    ]);
    // No secret, in any field.
    const { password_hash: passwordHash } = await api.db.knex('users').where({ id: anna.id }).first('password_hash');
    const tokenHashes: string[] = await api.db.knex('api_tokens').where({ user_id: anna.id }).pluck('token_hash');
    const endpoint = await api.db
      .knex('webhook_endpoints')
      .where({ user_id: anna.id })
      .first('secret_encrypted', 'header_value_encrypted');
    const secrets = [
      passwordHash,
      ...tokenHashes,
      anna.token,
      hashToken(anna.token),
      HEADER_VALUE,
      anna.signingSecret,
      endpoint.secret_encrypted,
      endpoint.header_value_encrypted,
      sha('access-anna'),
      sha('grant-anna'),
    ];
    expect(tokenHashes.length).toBeGreaterThanOrEqual(3);
    for (const secret of secrets) expect(raw.includes(secret)).toBe(false);
    expect(raw).not.toMatch(
      /"(password_hash|token_hash|secret_encrypted|previous_secret_encrypted|header_value_encrypted|auth_secret|key_hash)"/,
    );
    expect(raw.includes(bert.email)).toBe(false);
  });

  it('makes no archive while ClickHouse does not answer', async () => {
    const away = createClickHouse({
      clickhouse: { ...api.config.clickhouse, url: `http://127.0.0.1:${await freePort()}` },
    });
    try {
      const archive = await prepareAccountExport(
        {
          accountData: storage.accountData,
          rum: rumQueries({ client: away, database: clickhouse.database }),
          clock: api.clock.read,
        },
        anna.id,
      );
      expect(archive.kind).toBe('live_data_unavailable');
    } finally {
      await away.close();
    }
  });

  it('refuses a wrong password or confirmation beside the field, then deletes everything of the account', async () => {
    const bertBefore = await rowsOf(bert.id);
    const bertRum = await countRumRows(clickhouse.client, clickhouse.database, bert.siteIds);
    expect(Object.values(bertBefore).filter((n) => n > 0).length).toBeGreaterThanOrEqual(10);
    const annaFolders = anna.scanIds.filter((id) => assetFolders().has(id));
    expect(annaFolders.length).toBeGreaterThanOrEqual(3);
    const annaRum = await countRumRows(clickhouse.client, clickhouse.database, anna.siteIds);
    expect(annaRum.rum_metrics).toBeGreaterThan(0);
    expect(annaRum.rum_rejections).toBeGreaterThan(0);

    const context = await browser.browser.createBrowserContext();
    const page = await context.newPage();
    await signIn(page, anna.email, SEEDED_PASSWORD);
    await page.goto(`${api.url}/settings/data`);
    const attempt = async (password: string, confirmation: string) => {
      await page.type('#delete-password', password);
      await page.$eval('#delete-confirmation', (input) => ((input as unknown as { value: string }).value = ''));
      await page.type('#delete-confirmation', confirmation);
      const [response] = await Promise.all([page.waitForNavigation(), page.click('#delete-button')]);
      return response?.status();
    };
    const errorOf = (field: string) =>
      page.$eval(`#delete-${field}-error`, (p) => ({
        text: p.textContent,
        follows: p.previousElementSibling?.id,
      }));

    expect(await attempt('not-the-password', anna.email)).toBe(422);
    expect(await errorOf('password')).toEqual({ text: text.wrongPassword, follows: 'delete-password' });
    expect(await page.$('#delete-confirmation-error')).toBeNull();
    // The failure it recorded goes with the account (a sign-in tried after the deletion may record one later).
    const lastFailure = Number((await api.db.knex('sign_in_failures').max('id as id').first())?.id);
    expect(lastFailure).toBeGreaterThan(0);
    expect(await attempt(SEEDED_PASSWORD, 'someone@example.com')).toBe(422);
    expect(await errorOf('confirmation')).toEqual({ text: text.confirmationMismatch, follows: 'delete-confirmation' });
    expect(await page.$('#delete-password-error')).toBeNull();
    expect((await storage.accountData.account(anna.id))?.deletedAt).toBeNull();

    // The address in another case still confirms.
    expect(await attempt(SEEDED_PASSWORD, anna.email.toUpperCase())).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/settings/data/deleted');
    // The live-data rows wait until the ingest has stopped taking the sites' beacons: let that time pass.
    api.clock.set(new Date(api.clock.read().getTime() + LIVE_DATA_SETTLE_MS));
    expect(await page.$eval('h1', (h1) => h1.textContent)).toBe(text.deletedTitle);
    // At once: signed out, no sign-in, no token, whatever the workflow has done so far.
    await page.goto(`${api.url}/settings/data`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
    const client = new WebClient(api.url, api.config.baseUrl);
    expect((await client.signIn(anna.email, SEEDED_PASSWORD)).status).toBe(422);
    expect((await call(api, '/me', { token: anna.token })).status).toBe(401);

    const report = (await api.temporal.workflow
      .getHandle(accountDeletionWorkflowId(prefix(), anna.id))
      .result()) as AccountDeletionReport;
    expect(report).toMatchObject({ userId: anna.id, schedules: anna.targetIds.length, userRow: true });
    expect(report.stoppedWorkflows).toBe(2);
    expect(report.scanImageFolders).toBe(annaFolders.length);
    expect(report.rows.scans).toBe(anna.scanIds.length);

    // Nothing of Anna's is left anywhere.
    const left = await rowsOf(anna.id);
    expect(Object.keys(left).length).toBeGreaterThanOrEqual(12);
    expect(Object.entries(left).filter(([, n]) => n > 0)).toEqual([]);
    const failures = await api.db
      .knex('sign_in_failures')
      .where({ email_hash: emailHash(anna.email) })
      .where('id', '<=', lastFailure)
      .pluck('id');
    expect(failures).toEqual([]);
    expect(await countRumRows(clickhouse.client, clickhouse.database, anna.siteIds)).toEqual({
      rum_metrics: 0,
      rum_rejections: 0,
      rum_daily: 0,
      rum_today: 0,
    });
    for (const id of anna.targetIds) expect(await describeTargetSchedule(api.temporal, prefix(), id)).toBeNull();
    for (const workflowId of anna.workflows)
      expect((await api.temporal.workflow.getHandle(workflowId).describe()).status.name).toBe('TERMINATED');
    const folders = assetFolders();
    expect(anna.scanIds.filter((id) => folders.has(id))).toEqual([]);

    // A second run finds nothing to do and succeeds.
    const again = await startAccountDeletionWorkflow(api.temporal, prefix(), anna.id);
    expect(again.status).toBe('started');
    const second = (await api.temporal.workflow
      .getHandle(accountDeletionWorkflowId(prefix(), anna.id), again.runId)
      .result()) as AccountDeletionReport;
    expect(second).toMatchObject({ schedules: 0, stoppedWorkflows: 0, scanImageFolders: 0, userRow: false });

    // Bert's data is untouched.
    expect(await rowsOf(bert.id)).toEqual(bertBefore);
    expect(await countRumRows(clickhouse.client, clickhouse.database, bert.siteIds)).toEqual(bertRum);
    for (const id of bert.targetIds) expect(await describeTargetSchedule(api.temporal, prefix(), id)).not.toBeNull();
    for (const workflowId of bert.workflows)
      expect((await api.temporal.workflow.getHandle(workflowId).describe()).status.name).toBe('RUNNING');
    expect(bert.scanIds.filter((id) => folders.has(id))).toHaveLength(1);
    expect((await client.signIn(bert.email, SEEDED_PASSWORD)).status).toBe(303);
    expect((await call(api, '/me', { token: bert.token })).status).toBe(200);
  }, 120_000);

  it('starts the deletion of an account closed while Temporal was away from the reconciler', async () => {
    const closed = await createUser(storage.users, {
      name: 'Carla',
      email: 'carla@example.com',
      password: SEEDED_PASSWORD,
      plan: 'free',
    });
    await mintToken(storage.tokens, closed.id, 'carla token', null);
    expect(await storage.accountData.close(closed.id, api.clock.read())).toBe(true);
    // Closed: found by neither id nor address, so no password reset or verification mail reaches it.
    expect(await storage.users.findById(closed.id)).toBeUndefined();
    expect(await storage.users.findByEmail(closed.email)).toBeUndefined();
    const later = () => new Date(api.clock.read().getTime() + 2 * 60_000);
    const reconcile = createReconcileActivities({
      scans: storage.scans,
      flows: storage.flows,
      failFlowRun: () => Promise.reject(new Error('this account has no flow run in flight')),
      graceMs: RECONCILE_GRACE_DEFAULT_MS,
      temporal: () => api.temporal,
      clock: later,
      log: createLogger({ logLevel: 'silent' }, 'test'),
      accountData: storage.accountData,
      taskQueuePrefix: prefix(),
    });
    const { deletionsStarted } = await reconcile.reconcileStaleScans();
    expect(deletionsStarted).toEqual([closed.id]);
    await api.temporal.workflow.getHandle(accountDeletionWorkflowId(prefix(), closed.id)).result();
    expect(Object.entries(await rowsOf(closed.id)).filter(([, n]) => n > 0)).toEqual([]);
    // An account not closed is never deleted: the workflow refuses it.
    const started = await startAccountDeletionWorkflow(api.temporal, prefix(), bert.id);
    await expect(
      api.temporal.workflow.getHandle(accountDeletionWorkflowId(prefix(), bert.id), started.runId).result(),
    ).rejects.toThrow();
    expect((await rowsOf(bert.id)).users).toBe(1);
  }, 60_000);
});
