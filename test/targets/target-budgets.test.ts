import type { Browser } from 'puppeteer-core';
import { deleteTargetSchedulesOf } from '../../infra/temporal-client.ts';
import { createStorage } from '../../db/store/index.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage, submit } from '../harness/browser.ts';
import { openApiContract } from '../harness/contract.ts';

/**
 * Budgets of targets through the API's domain endpoints (set, read, replaced, refused with 422 in the spec's
 * error shape) and through the budgets form on the target page (without JavaScript), against the real app,
 * Postgres and Temporal (schedules are created, never run here; test/targets/budget-alert-flow.cases.ts runs
 * them).
 */
let api: TestApi;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  api = await startTestApi();
  conforms = await openApiContract(api);
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await deleteTargetSchedulesOf(api.temporal, api.config.temporal.taskQueuePrefix).catch(() => undefined);
  await api?.close();
});

type Target = { id: number; budgets: Record<string, unknown> };

it('are set on POST, read on GET, replaced as a whole on PATCH and removed with {}', async () => {
  const { token } = await createTestUser(api, 'pro');
  const budgets = {
    mobile: { lcp_ms: 2500, cls: 0.1, ttfb_ms: 800 },
    desktop: { tbt_ms: 200, fcp_ms: 1200 },
    scores: { overall: 80, speed: 70 },
  };
  const created = await call(api, '/domains', {
    token,
    method: 'POST',
    body: { url: 'https://budgets.example/pricing', budgets },
  });
  expect(created.status).toBe(201);
  expect(conforms('post', '/domains', created)).toEqual([]);
  const target = created.body.data as Target;
  expect(target.budgets).toEqual(budgets);

  const listed = await call(api, '/domains', { token });
  expect(conforms('get', '/domains', listed)).toEqual([]);
  expect((listed.body.data as Target[]).find((t) => t.id === target.id)!.budgets).toEqual(budgets);

  // A target created without budgets has none.
  const plain = await call(api, '/domains', { token, method: 'POST', body: { url: 'https://budgets.example/' } });
  expect((plain.body.data as Target).budgets).toEqual({});

  const replaced = await call(api, `/domains/${target.id}`, {
    token,
    method: 'PATCH',
    body: { budgets: { desktop: { lcp_ms: 1800 } } },
  });
  expect(replaced.status).toBe(200);
  expect(conforms('patch', '/domains/{id}', replaced)).toEqual([]);
  expect((replaced.body.data as Target).budgets).toEqual({ desktop: { lcp_ms: 1800 } });

  // A PATCH without `budgets` keeps them.
  const paused = await call(api, `/domains/${target.id}`, { token, method: 'PATCH', body: { is_active: false } });
  expect((paused.body.data as Target).budgets).toEqual({ desktop: { lcp_ms: 1800 } });

  const cleared = await call(api, `/domains/${target.id}`, { token, method: 'PATCH', body: { budgets: {} } });
  expect((cleared.body.data as Target).budgets).toEqual({});
  expect((await api.db.knex('scan_targets').where({ id: target.id }).first()).budgets).toEqual({});
});

it('refuses bad budgets with 422 naming the field, and stores nothing', async () => {
  const { user, token } = await createTestUser(api, 'pro');
  const cases: Array<[unknown, string]> = [
    [{ mobile: { lcp_ms: -1 } }, 'budgets.mobile.lcp_ms'],
    [{ mobile: { lcp_ms: 600_001 } }, 'budgets.mobile.lcp_ms'],
    [{ desktop: { tbt_ms: 12.5 } }, 'budgets.desktop.tbt_ms'],
    [{ desktop: { cls: '0.1' } }, 'budgets.desktop.cls'],
    [{ desktop: { cls: 11 } }, 'budgets.desktop.cls'],
    [{ mobile: { inp_ms: 200 } }, 'budgets.mobile.inp_ms'],
    [{ tablet: { lcp_ms: 2500 } }, 'budgets.tablet'],
    [{ scores: { overall: 101 } }, 'budgets.scores.overall'],
    [{ scores: { seo: 50 } }, 'budgets.scores.seo'],
    [[], 'budgets'],
  ];
  for (const [budgets, field] of cases) {
    const res = await call(api, '/domains', { token, method: 'POST', body: { url: 'https://bad.example/', budgets } });
    expect([JSON.stringify(budgets), res.status, Object.keys((res.body.errors as object) ?? {})]).toEqual([
      JSON.stringify(budgets),
      422,
      expect.arrayContaining([field]),
    ]);
    expect(typeof res.body.message).toBe('string');
  }
  expect(await api.db.knex('scan_targets').where({ user_id: user.id })).toEqual([]);

  const target = (
    await call(api, '/domains', {
      token,
      method: 'POST',
      body: { url: 'https://ok.example/', budgets: { scores: { overall: 60 } } },
    })
  ).body.data as Target;
  const refused = await call(api, `/domains/${target.id}`, {
    token,
    method: 'PATCH',
    body: { budgets: { mobile: { lcp_ms: 'fast' } } },
  });
  expect(refused.status).toBe(422);
  expect(Object.keys(refused.body.errors as object)).toContain('budgets.mobile.lcp_ms');
  expect((await api.db.knex('scan_targets').where({ id: target.id }).first()).budgets).toEqual({
    scores: { overall: 60 },
  });
});

it('the target page sets budgets from its form, refuses a bad value next to its field, and shows them in German too', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const page = await signedInPage(browser, api.url, user.email, PASSWORD);
  const targets = createStorage(api.db.knex).targets;
  const { id } = await targets.insert({
    userId: user.id,
    url: 'https://budget-page.example/',
    host: 'budget-page.example',
    region: 'local',
    isActive: false,
    thresholds: { overall: { warning: 70, critical: 50 } },
    createdAt: new Date(),
  });
  await page.goto(`${api.url}/targets/${id}`);
  expect(await page.$eval('#budgets-summary', (el) => el.textContent)).toBe('No budgets set.');

  await page.click('#budgets summary');
  await page.type('#budget-mobile-lcp_ms', '2500');
  await page.type('#budget-desktop-cls', '0.1');
  await page.type('#budget-scores-overall', '700');
  expect(await submit(page, '#budgets-form button[type=submit]')).toBe(422);
  expect(await page.$eval('#budget-scores-overall-error', (el) => el.textContent)).toBe(
    'A whole number from 0 to 100, or empty.',
  );
  // What was typed stays in the form, and nothing was stored.
  expect(await page.$eval('#budget-mobile-lcp_ms', (el) => (el as unknown as { value: string }).value)).toBe('2500');
  expect((await targets.find(id))!.budgets).toEqual({});

  await page.$eval('#budget-scores-overall', (el) => ((el as unknown as { value: string }).value = '80'));
  expect(await submit(page, '#budgets-form button[type=submit]')).toBe(200);
  expect(page.url()).toBe(`${api.url}/targets/${id}?notice=budgets`);
  expect((await targets.find(id))!.budgets).toEqual({
    mobile: { lcp_ms: 2500 },
    desktop: { cls: 0.1 },
    scores: { overall: 80 },
  });
  expect(await page.$eval('#budgets-summary', (el) => el.textContent)).toBe('3 budgets set.');
  expect(await page.$eval('#budget-desktop-cls', (el) => (el as unknown as { value: string }).value)).toBe('0.1');

  // German: its words, and a decimal comma accepted.
  await page.setExtraHTTPHeaders({ 'accept-language': 'de' });
  await page.goto(`${api.url}/targets/${id}`);
  expect(await page.$eval('#budgets-summary', (el) => el.textContent)).toBe('3 Budgets gesetzt.');
  expect(await page.$eval('#budget-desktop-cls', (el) => (el as unknown as { value: string }).value)).toBe('0,1');
  await page.click('#budgets summary');
  await page.$eval('#budget-desktop-cls', (el) => ((el as unknown as { value: string }).value = '0,25'));
  expect(await submit(page, '#budgets-form button[type=submit]')).toBe(200);
  expect(await page.$eval('#notice', (el) => el.textContent)).toBe('Budgets gespeichert.');
  expect((await targets.find(id))!.budgets).toMatchObject({ desktop: { cls: 0.25 } });
});
