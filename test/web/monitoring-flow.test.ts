import type { Browser, Page } from 'puppeteer-core';
import { deleteTargetSchedulesOf, describeTargetSchedule } from '../../infra/temporal-client.ts';
import { createStorage } from '../../db/store/index.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { insertFinishedScan, scoresOf } from '../harness/alerts.ts';
import { launchBrowser, signedInPage as signInWithForm, submit } from '../harness/browser.ts';

/**
 * The monitoring pages wired to the real stores and Temporal, driven in Chromium without JavaScript: a
 * target added from the form gets its schedule, pause and thresholds change it, its page charts its scans
 * and links to their reports, and the alerts page reads, dismisses and marks all read, with the badge
 * in the navigation following.
 */
let api: TestApi;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  api = await startTestApi({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await deleteTargetSchedulesOf(api.temporal, api.config.temporal.taskQueuePrefix).catch(() => undefined);
  await api?.close();
});

const signedInPage = (email: string): Promise<Page> => signInWithForm(browser, api.url, email, PASSWORD);

const prefix = () => api.config.temporal.taskQueuePrefix;

describe('monitoring in the browser', () => {
  it('adds a target with its schedule, refuses bad thresholds next to the field, pauses and resumes it', async () => {
    const { user } = await createTestUser(api, 'starter', PASSWORD);
    const page = await signedInPage(user.email);
    await page.goto(`${api.url}/targets`);
    expect(await page.$('#no-targets')).not.toBeNull();

    await page.type('#target-url', 'https://monitored.example/pricing');
    await page.$eval('#new-critical', (el) => ((el as unknown as { value: string }).value = '80'));
    expect(await submit(page, '#add-target-button')).toBe(422);
    expect(await page.$eval('#new-critical-error', (el) => el.textContent)).toContain('may not be above the warning');
    expect(await page.$eval('#target-url', (el) => (el as unknown as { value: string }).value)).toBe(
      'https://monitored.example/pricing',
    );

    await page.$eval('#new-critical', (el) => ((el as unknown as { value: string }).value = '40'));
    expect(await submit(page, '#add-target-button')).toBe(200);
    const [target] = (await createStorage(api.db.knex).targets.listOwned(user.id, { limit: 10, page: 1 })).items;
    expect(target).toMatchObject({
      url: 'https://monitored.example/pricing',
      thresholds: { overall: { warning: 70, critical: 40 } },
      isActive: true,
    });
    expect(await describeTargetSchedule(api.temporal, prefix(), target!.id)).toMatchObject({
      state: { paused: false },
    });

    const card = `[data-target-id="${target!.id}"]`;
    expect(await page.$(card)).not.toBeNull();
    expect(await submit(page, `${card} form[action$="/pause"] button`)).toBe(200);
    expect(await describeTargetSchedule(api.temporal, prefix(), target!.id)).toMatchObject({ state: { paused: true } });
    expect(await submit(page, `${card} form[action$="/resume"] button`)).toBe(200);
    expect(await describeTargetSchedule(api.temporal, prefix(), target!.id)).toMatchObject({
      state: { paused: false },
    });
    await page.browserContext().close();
  });

  it("charts a target's finished scans on its page, each point leading to the scan's report", async () => {
    const { user } = await createTestUser(api, 'starter', PASSWORD);
    const storage = createStorage(api.db.knex);
    const target = await storage.targets.insert({
      userId: user.id,
      url: 'https://charted.example/',
      host: 'charted.example',
      region: api.config.regions.default,
      isActive: true,
      thresholds: { overall: { warning: 70, critical: 50 } },
      createdAt: new Date(),
    });
    const base = Date.now() - 5 * 86_400_000;
    const ids: string[] = [];
    for (const [day, score] of [92, 88, 64, 81].entries())
      ids.push(
        await insertFinishedScan(api.db.knex, user.id, target, scoresOf(score), new Date(base + day * 86_400_000)),
      );
    // The newest scan ran three times: its runs' own overall scores are drawn as its spread.
    await api.db
      .knex('scans')
      .where({ public_id: ids[3] })
      .update({
        result: api.db.knex.raw(
          `jsonb_set(result, '{runs}', '{"desktop": [], "mobile": [], "overall": [74, 81, 88]}')`,
        ),
      });
    const page = await signedInPage(user.email);
    expect((await page.goto(`${api.url}/targets/${target.id}`))?.status()).toBe(200);
    // The score chart (the lab-metric charts below it link to the same reports).
    expect(await page.$$eval('#history-chart svg line.spread', (lines) => lines.length)).toBe(1);
    const links = await page.$$eval('#history-chart svg a', (as) => as.map((a) => a.getAttribute('href')));
    expect(links.sort()).toEqual(ids.map((id) => `/reports/${id}`).sort());
    expect(await page.$eval('#history-chart svg desc', (el) => el.textContent)).toMatch(/92.*81/);
    // Each scan but the oldest compares with the one before it.
    expect(await page.$$eval('#scans a.compare', (as) => as.length)).toBe(ids.length - 1);
    expect(await submit(page, `#scans tr[data-scan-id="${ids[3]}"] a.compare`)).toBe(200);
    const cells = await page.$$eval('#compare-scores [data-score="overall"] td', (tds) =>
      tds.map((td) => td.textContent?.trim()),
    );
    // One value before, three runs after: the medians against the default band (4 scans are too few to learn one).
    expect(cells).toEqual(['64', '81', '+17 ✓ better within ±8 is noise (the default band)']);
    // Another user's target is not found.
    const other = await createTestUser(api, 'starter', PASSWORD);
    const stranger = await signedInPage(other.user.email);
    expect((await stranger.goto(`${api.url}/targets/${target.id}`))?.status()).toBe(404);
    await page.browserContext().close();
    await stranger.browserContext().close();
  });

  it('reads and dismisses alerts, and the badge in the navigation counts what is unread', async () => {
    const { user } = await createTestUser(api, 'starter', PASSWORD);
    const storage = createStorage(api.db.knex);
    const target = await storage.targets.insert({
      userId: user.id,
      url: 'https://alerting.example/',
      host: 'alerting.example',
      region: api.config.regions.default,
      isActive: true,
      thresholds: { overall: { warning: 70, critical: 50 } },
      createdAt: new Date(),
    });
    const alertIds: number[] = [];
    for (const [i, type] of (['score_below_threshold', 'score_regression'] as const).entries()) {
      const scanId = await insertFinishedScan(
        api.db.knex,
        user.id,
        target,
        scoresOf(60),
        new Date(Date.now() - (3 - i) * 3600_000),
      );
      const alert = await storage.alerts.insert({
        userId: user.id,
        targetId: target.id,
        type,
        severity: 'warning',
        details: { score: 'overall', value: 60, reference: type === 'score_regression' ? 90 : 70 },
        url: target.url,
        host: target.host,
        region: target.region,
        scanPublicId: scanId,
        createdAt: new Date(),
      });
      alertIds.push(alert.id);
    }
    const page = await signedInPage(user.email);
    const badge = () => page.$eval('nav a[href="/alerts"] .badge', (el) => el.textContent).catch(() => null);
    expect(await badge()).toBe('2');
    await page.goto(`${api.url}/alerts`);
    expect(await page.$$eval('[data-alert-id]', (items) => items.length)).toBe(2);

    expect(await submit(page, `[data-alert-id="${alertIds[0]}"] form[action$="/read"] button`)).toBe(200);
    expect(await badge()).toBe('1');
    expect(await submit(page, `[data-alert-id="${alertIds[1]}"] form[action$="/dismiss"] button`)).toBe(200);
    expect(await badge()).toBeNull();
    expect(await storage.alerts.findOwned(user.id, alertIds[1]!)).toMatchObject({ isDismissed: true, isRead: true });

    expect((await page.goto(`${api.url}/alerts?status=open`))?.status()).toBe(200);
    expect(
      await page.$$eval('[data-alert-id]', (items) => items.map((item) => Number(item.getAttribute('data-alert-id')))),
    ).toEqual([alertIds[0]]);
    expect((await page.goto(`${api.url}/alerts?status=bogus`))?.status()).toBe(422);
    await page.browserContext().close();
  });
});

describe('the dashboard', () => {
  it("shows the user's targets with their latest score and open alerts", async () => {
    const { user } = await createTestUser(api, 'starter', PASSWORD);
    const storage = createStorage(api.db.knex);
    const target = await storage.targets.insert({
      userId: user.id,
      url: 'https://dashboard.example/',
      host: 'dashboard.example',
      region: api.config.regions.default,
      isActive: true,
      thresholds: { overall: { warning: 70, critical: 50 } },
      createdAt: new Date(),
    });
    const scanId = await insertFinishedScan(
      api.db.knex,
      user.id,
      target,
      scoresOf(64),
      new Date(Date.now() - 3600_000),
    );
    const alert = await storage.alerts.insert({
      userId: user.id,
      targetId: target.id,
      type: 'score_below_threshold',
      severity: 'warning',
      details: { score: 'overall', value: 64, reference: 70 },
      url: target.url,
      host: target.host,
      region: target.region,
      scanPublicId: scanId,
      createdAt: new Date(),
    });
    const page = await signedInPage(user.email);
    expect(
      await page.$eval(`#dashboard-targets [data-target-id="${target.id}"] .score-pill`, (el) => el.textContent),
    ).toBe('64');
    expect(await page.$(`#dashboard-targets [data-target-id="${target.id}"] svg`)).not.toBeNull();
    expect(await page.$eval(`#dashboard-alerts [data-alert-id="${alert.id}"] a`, (el) => el.getAttribute('href'))).toBe(
      `/reports/${scanId}`,
    );
    await page.browserContext().close();
  });
});
