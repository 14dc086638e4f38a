import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { createStorage } from '../../db/store/index.ts';
import { describeFailures, startPageAuditor, type AuditAnswer, type PageAuditor } from '../../fixtures/page-audit.ts';
import { renderSampleImages, seedWebArea, WEB_AREA_PAGES, type SeededWebArea } from '../../fixtures/web-area.ts';
import { localAssetStore } from '../../services/assets.ts';
import { startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser } from '../harness/browser.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';

/**
 * Our own scanner on our own pages: Lighthouse's accessibility and best-practices audits on every page of the
 * web area, signed out and signed in (Lighthouse loads them in a browser context that signed in through the
 * form), each scoring 95 or more, and the report page with its request waterfall also at 360 and 1280 px wide;
 * and in Chromium at 360 px, in both languages, no page scrolls sideways and
 * every element the keyboard reaches shows where the focus is. The data comes from fixtures/web-area.ts.
 */
let api: TestApi;
let browser: Browser;
let closeBrowser: () => Promise<void>;
/** Two auditors (each its own process and Chromium), so that the two settings' audits run side by side. */
let auditors: [PageAuditor, PageAuditor];
let seeded: SeededWebArea;
let clickhouse: IsolatedClickHouse;
const assetsDir = mkdtempSync(join(tmpdir(), 'webperf-page-quality-'));
const MINIMUM = 95;

beforeAll(async () => {
  clickhouse = await isolatedClickHouse();
  api = await startTestApi({ env: { ASSETS_DIR: assetsDir, CLICKHOUSE_DATABASE: clickhouse.database } });
  ({ browser, close: closeBrowser } = await launchBrowser());
  seeded = await seedWebArea({
    storage: createStorage(api.db.knex),
    assets: localAssetStore(assetsDir),
    region: api.config.regions.default,
    now: api.clock.read(),
    images: await renderSampleImages(browser),
    clickhouse: clickhouse.client,
  });
  auditors = [
    startPageAuditor({ chromiumPath: api.config.chromiumPath }),
    startPageAuditor({ chromiumPath: api.config.chromiumPath }),
  ];
  await Promise.all(auditors.map((auditor) => auditor.signIn(api.url, seeded.email, seeded.password)));
}, 60_000);

afterAll(async () => {
  await Promise.all((auditors ?? []).map((auditor) => auditor.close()));
  await closeBrowser?.();
  await api?.close();
  await clickhouse?.drop();
  rmSync(assetsDir, { recursive: true, force: true });
});

async function signedInContext(): Promise<BrowserContext> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(`${api.url}/login`);
  await page.type('#email', seeded.email);
  await page.type('#password', seeded.password);
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
  expect(new URL(page.url()).pathname).toBe('/');
  await page.close();
  return context;
}

/** Every page in both languages, in a browser context of the right kind, with JavaScript off (the progress page would follow its scan). */
async function forEachPage(
  width: number,
  visit: (page: Page, name: string, lang: string) => Promise<void>,
): Promise<void> {
  const contexts = { visitor: await browser.createBrowserContext(), user: await signedInContext() };
  try {
    for (const { name, signedIn } of WEB_AREA_PAGES) {
      for (const lang of ['en', 'de']) {
        const page = await contexts[signedIn ? 'user' : 'visitor'].newPage();
        await page.setJavaScriptEnabled(false);
        await page.setExtraHTTPHeaders({ 'accept-language': lang });
        await page.setViewport({ width, height: 800 });
        await page.goto(`${api.url}${seeded.paths[name]}`, { waitUntil: 'load' });
        expect({ name, lang, htmlLang: await page.$eval('html', (el) => el.lang) }).toEqual({
          name,
          lang,
          htmlLang: lang,
        });
        await visit(page, name, lang);
        await page.close();
      }
    }
  } finally {
    await contexts.visitor.close();
    await contexts.user.close();
  }
}

describe('the quality of our own pages', () => {
  it(`scores ${MINIMUM}+ in Lighthouse accessibility and best practices on every page, 1280 px desktop in English and 360 px phone in German`, async () => {
    const runs: Array<{ formFactor: 'desktop' | 'mobile'; language: 'en' | 'de'; width: number }> = [
      { formFactor: 'desktop', language: 'en', width: 1280 },
      { formFactor: 'mobile', language: 'de', width: 360 },
    ];
    // Each setting on its own auditor, side by side; the findings in the same order as one after the other.
    const found = await Promise.all(
      runs.map(async ({ formFactor, language, width }, index) => {
        const auditor = auditors[index]!;
        const below: string[] = [];
        for (const page of WEB_AREA_PAGES) {
          const answer: AuditAnswer = await auditor.audit({
            url: `${api.url}${seeded.paths[page.name]}`,
            signedIn: page.signedIn,
            formFactor,
            language,
            width,
            categories: ['accessibility', 'best-practices'],
            snapshot: 'snapshot' in page,
          });
          // Lighthouse loaded the page itself, not the sign-in page a lost session would redirect to.
          const landed = answer.finalUrl ? new URL(answer.finalUrl).pathname : '';
          const scores = answer.scores;
          const ok =
            !answer.error &&
            landed === new URL(`${api.url}${seeded.paths[page.name]}`).pathname &&
            (scores.accessibility ?? 0) >= MINIMUM &&
            (scores['best-practices'] ?? 0) >= MINIMUM;
          if (!ok)
            below.push(
              `${page.name} (${formFactor} ${width} px, ${language}) at ${landed}: accessibility ${scores.accessibility}, best practices ${scores['best-practices']}\n${describeFailures(answer)}`,
            );
        }
        return below;
      }),
    );
    expect(found.flat().join('\n')).toBe('');
  }, 600_000);

  it(`scores ${MINIMUM}+ on the report page with its request waterfall and bytes, at 360 px and at 1280 px`, async () => {
    const context = await signedInContext();
    try {
      const page = await context.newPage();
      await page.goto(`${api.url}${seeded.paths.report}`, { waitUntil: 'load' });
      // The audited report has what the report can show: rated metrics, both waterfalls, the script and image bytes.
      const parts = await page.evaluate(`({
        rated: document.querySelectorAll('#metrics [data-rating]').length,
        desktop: document.querySelectorAll('#waterfall-desktop tbody tr').length,
        mobile: document.querySelectorAll('#waterfall-mobile tbody tr').length,
        bytes: document.querySelectorAll('table.bytes tbody tr').length,
        bars: document.querySelectorAll('.wf-req').length,
      })`);
      expect(parts).toEqual({
        rated: 8,
        desktop: expect.any(Number),
        mobile: expect.any(Number),
        bytes: expect.any(Number),
        bars: expect.any(Number),
      });
      const counts = parts as Record<string, number>;
      expect(Math.min(counts.desktop!, counts.mobile!, counts.bytes!)).toBeGreaterThan(10);
      // The waterfall's filters work without scripts: choosing one hides the other requests of chart and table.
      const shown = () =>
        page.evaluate(`(() => {
          const visible = (selector) => [...document.querySelectorAll(selector)].filter((el) => el.offsetParent !== null);
          return {
            chart: visible('#network-desktop .wf-rows li').map((li) => li.dataset.type + (li.hasAttribute('data-blocking') ? '!' : '')),
            table: visible('#waterfall-desktop tbody tr').map((tr) => tr.dataset.type + (tr.hasAttribute('data-blocking') ? '!' : '')),
          };
        })()`) as Promise<{ chart: string[]; table: string[] }>;
      const all = await shown();
      expect(all.chart).toHaveLength(counts.desktop!);
      await page.click('label[for="wf-filter-desktop-script"]');
      const scripts = await shown();
      expect(scripts.chart.length).toBeGreaterThan(0);
      expect(scripts.chart.length).toBeLessThan(all.chart.length);
      expect(scripts).toEqual({
        chart: all.chart.filter((t) => t.startsWith('script')),
        table: all.table.filter((t) => t.startsWith('script')),
      });
      await page.click('label[for="wf-filter-desktop-blocking"]');
      expect((await shown()).table).toEqual(all.table.filter((t) => t.endsWith('!')));
      await page.click('label[for="wf-filter-desktop-all"]');
      expect(await shown()).toEqual(all);
      for (const width of [360, 1280]) {
        await page.setViewport({ width, height: 800 });
        await page.reload({ waitUntil: 'load' });
        const wide = (await page.evaluate(
          "[document.documentElement, ...document.querySelectorAll('section')].filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.id || el.tagName)",
        )) as string[];
        expect({ width, wide }).toEqual({ width, wide: [] });
      }
      await page.close();
    } finally {
      await context.close();
    }
    const below: string[] = [];
    const settings = [
      { width: 360, formFactor: 'mobile', language: 'en' },
      { width: 1280, formFactor: 'desktop', language: 'de' },
    ] as const;
    const answers = await Promise.all(
      settings.map(({ width, formFactor, language }, index) =>
        auditors[index]!.audit({
          url: `${api.url}${seeded.paths.report}`,
          signedIn: true,
          formFactor,
          language,
          width,
          categories: ['accessibility', 'best-practices'],
        }),
      ),
    );
    for (const [index, { width, language }] of settings.entries()) {
      const answer = answers[index]!;
      const landed = answer.finalUrl ? new URL(answer.finalUrl).pathname : '';
      const { scores } = answer;
      console.log(
        `report at ${width} px (${language}): accessibility ${scores.accessibility}, best practices ${scores['best-practices']}`,
      );
      if (
        answer.error ||
        landed !== new URL(`${api.url}${seeded.paths.report}`).pathname ||
        (scores.accessibility ?? 0) < MINIMUM ||
        (scores['best-practices'] ?? 0) < MINIMUM
      )
        below.push(
          `report at ${width} px (${language}): accessibility ${scores.accessibility}, best practices ${scores['best-practices']}\n${describeFailures(answer)}`,
        );
    }
    expect(below.join('\n')).toBe('');
  }, 180_000);

  it('lets no page scroll sideways at 360 px, in English and German, with the whole navigation on screen', async () => {
    const overflowing: string[] = [];
    await forEachPage(360, async (page, name, lang) => {
      // Neither the page nor a section (whose overflow would scroll inside it) is wider than the screen.
      const wide = (await page.evaluate(
        "[document.documentElement, ...document.querySelectorAll('section')].filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.id || el.tagName)",
      )) as string[];
      const offScreen = (await page.evaluate(
        "[...document.querySelectorAll('header a, header button')].filter((el) => { const r = el.getBoundingClientRect(); return r.left < 0 || r.right > document.documentElement.clientWidth; }).map((el) => el.textContent)",
      )) as string[];
      if (wide.length || offScreen.length)
        overflowing.push(`${name} (${lang}): too wide ${wide.join(', ')}; header off screen ${offScreen.join(', ')}`);
    });
    expect(overflowing).toEqual([]);
  }, 120_000);

  it('shows the focus on everything the keyboard reaches, starting with the skip link', async () => {
    const unseen: string[] = [];
    await forEachPage(360, async (page, name, lang) => {
      if (lang === 'de') return; // the same markup; once is enough
      await page.keyboard.press('Tab');
      const skip = await page.evaluate(
        '(() => { const el = document.activeElement; const r = el.getBoundingClientRect(); return { cls: el.className, visible: r.left >= 0 && r.width > 1 }; })()',
      );
      expect({ name, skip }).toEqual({ name, skip: { cls: 'skip', visible: true } });
      for (let i = 0; i < 150; i++) {
        const focused = (await page.evaluate(`(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return null;
          const style = getComputedStyle(el);
          const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
          return { what: el.outerHTML.slice(0, 80), ring };
        })()`)) as { what: string; ring: boolean } | null;
        if (!focused) break;
        if (!focused.ring) unseen.push(`${name}: ${focused.what}`);
        await page.keyboard.press('Tab');
        if (await page.evaluate("document.activeElement.className === 'skip'")) break;
      }
    });
    expect(unseen).toEqual([]);
  }, 120_000);
});
