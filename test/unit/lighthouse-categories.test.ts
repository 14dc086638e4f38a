import { getFormatted } from 'lighthouse/shared/localization/format.js';
import {
  auditFailures,
  categoryScores,
  formFactorLighthouse,
  type CategoryResult,
} from '../../activities/lighthouse/categories.ts';
import { LIGHTHOUSE_FLAGS } from '../../activities/lighthouse/settings.ts';
import { resultSchema } from '../../api/views/scan-schemas.ts';
import { resultView } from '../../api/views/scans.ts';
import { validate } from '../../api/validation.ts';
import { masterKey } from '../../core/keys.ts';
import {
  FAILURE_LIMITS,
  LIGHTHOUSE_CATEGORIES,
  scanLighthouse,
  type ScanLighthouse,
} from '../../core/scan/lighthouse-categories.ts';
import { FORM_FACTORS, type FormFactor, type ScanObservation } from '../../core/scan/observation.ts';
import { buildResultRecord, type ScanResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { finishedScan } from '../../fixtures/finished-scan.ts';
import { installedLighthouseVersion, readRecording, RECORD_COMMAND } from '../../fixtures/recorded-lighthouse.ts';
import { comparePage } from '../../web/scans/compare-page.ts';
import { lighthouseTitle } from '../../web/scans/report-categories.ts';
import { reportPage } from '../../web/scans/report-page.ts';

/**
 * Lighthouse's four categories against Lighthouse's own JSON of the same run: the recorded real runs of the
 * fixture pages /categories/ (an image without alt text, a nameless link, faint text, "click here", an error in
 * the console, no meta description) and /fast/ by the real scan runner, desktop and mobile
 * (fixtures/recorded/lighthouse-<version>/, `npm run record:lighthouse`). What the runner read of them, the
 * stored result, the API's view and the report, share and compare pages must say what Lighthouse's JSON says.
 */
const ORIGIN = 'http://127.0.0.1:4321';
type Lhr = CategoryResult & {
  finalDisplayedUrl: string;
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
};

function recorded(path: string): { obs: ScanObservation; lhr: Record<FormFactor, Lhr> } {
  const version = installedLighthouseVersion();
  const recording = readRecording(version, `${ORIGIN}${path}`);
  if (recording?.kind !== 'observation')
    throw new Error(`no recording of ${path} for Lighthouse ${version}: run ${RECORD_COMMAND}`);
  const lhr = {} as Record<FormFactor, Lhr>;
  for (const report of recording.reports) lhr[report.formFactor] = JSON.parse(report.json) as Lhr;
  return { obs: recording.observation as ScanObservation, lhr };
}

const categories = recorded('/categories/');
const fast = recorded('/fast/');
const record = (obs: ScanObservation): ScanResultRecord => buildResultRecord(obs, scoreScan(obs, new Date()));
const percent = (score: number | null) => (score === null ? null : Math.round(score * 100));
const KEY = masterKey(Buffer.alloc(32, 7));
const view = (result: ScanResultRecord, locale: 'en' | 'de' = 'en') =>
  resultView(finishedScan(result), {
    baseUrl: 'http://app.test',
    keys: { current: KEY, previous: null },
    locale,
    now: new Date(),
  });

/** The audits Lighthouse's JSON fails in accessibility, best practices and SEO, as its report counts failed. */
function failedInJson(lhr: Lhr): string[] {
  const ids = new Set<string>();
  for (const id of ['accessibility', 'best-practices', 'seo'])
    for (const ref of lhr.categories[id]!.auditRefs) {
      const audit = lhr.audits[ref.id]!;
      if (typeof audit.score === 'number' && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
        ids.add(ref.id);
    }
  return [...ids].sort();
}

describe('what the runner reads of a run', () => {
  it('is a run of all four categories, with the scans’ settings', () => {
    for (const factor of FORM_FACTORS) {
      const lhr = categories.lhr[factor] as Lhr & { configSettings: { onlyCategories: string[] } };
      expect(lhr.finalDisplayedUrl).toBe(`${ORIGIN}/categories/`);
      expect(lhr.configSettings.onlyCategories).toEqual(LIGHTHOUSE_FLAGS.onlyCategories);
      expect(Object.keys(lhr.categories).sort()).toEqual(LIGHTHOUSE_CATEGORIES.map((c) => c.id).sort());
    }
  });

  it('keeps each category’s score as Lighthouse’s JSON has it, 0–100 as its report shows it', () => {
    for (const { obs, lhr } of [categories, fast])
      for (const factor of FORM_FACTORS) {
        const expected = Object.fromEntries(
          LIGHTHOUSE_CATEGORIES.map((c) => [c.key, percent(lhr[factor].categories[c.id]!.score)]),
        );
        expect(categoryScores(lhr[factor])).toEqual(expected);
        // The recorded runner read the same (the extraction ran in the runner on this very result).
        expect(obs[factor].lighthouse!.categories).toEqual(expected);
        for (const value of Object.values(expected)) expect(value).toEqual(expect.any(Number));
      }
    // The faults cost /categories/ points in the three categories; /fast/ loses only SEO's meta description.
    const scores = categories.obs.mobile.lighthouse!.categories;
    expect(scores.accessibility).toBeLessThan(90);
    expect(scores.best_practices).toBeLessThan(100);
    expect(scores.seo).toBeLessThan(100);
    expect(fast.obs.mobile.lighthouse!.categories.accessibility).toBe(100);
  });

  it('lists every audit Lighthouse failed outside performance, heaviest first, with the elements it names', () => {
    for (const factor of FORM_FACTORS) {
      const lhr = categories.lhr[factor];
      const failures = auditFailures(lhr);
      expect(failures.map((f) => f.id).sort()).toEqual(failedInJson(lhr));
      expect(failures.map((f) => f.weight)).toEqual([...failures.map((f) => f.weight)].sort((a, b) => b - a));
      const byId = Object.fromEntries(failures.map((f) => [f.id, f]));
      expect(Object.keys(byId)).toEqual(
        expect.arrayContaining([
          'image-alt',
          'link-name',
          'color-contrast',
          'meta-description',
          'errors-in-console',
          'link-text',
        ]),
      );
      expect(byId['image-alt']!.categories).toEqual(['accessibility', 'seo']);
      expect(byId['image-alt']!.items.map((i) => i.selector)).toEqual(['body > main > img#no-alt']);
      expect(byId['link-name']!.items[0]!.selector).toBe('body > main > a#empty-link');
      expect(byId['color-contrast']!.items[0]).toMatchObject({ selector: 'body > main > p#faint' });
      expect(byId['link-text']!.items[0]).toMatchObject({ url: `${ORIGIN}/fast/`, text: 'click here' });
      expect(byId['errors-in-console']!.categories).toEqual(['best_practices']);
      expect(byId['errors-in-console']!.items.some((i) => i.text?.includes('fixture: a script failed'))).toBe(true);
      expect(byId['meta-description']!).toMatchObject({ categories: ['seo'], items: [], item_count: 0 });
      // The items Lighthouse's JSON lists, in its order.
      const jsonSelectors = (lhr.audits['image-alt']!.details!.items as Array<{ node: { selector: string } }>).map(
        (i) => i.node.selector,
      );
      expect(byId['image-alt']!.items.map((i) => i.selector)).toEqual(jsonSelectors);
      expect(byId['image-alt']!.help_url).toMatch(/^https:\/\//);
    }
    // /fast/ fails only the meta description.
    expect(auditFailures(fast.lhr.mobile).map((f) => f.id)).toEqual(['meta-description']);
  });

  it('titles each failed audit in English and German with Lighthouse’s own strings', () => {
    const [imageAlt] = auditFailures(categories.lhr.mobile).filter((f) => f.id === 'image-alt');
    expect(imageAlt!.title.en).toBe(categories.lhr.mobile.audits['image-alt']!.title);
    expect(imageAlt!.title.de).toBe(
      getFormatted(
        { i18nId: 'core/audits/accessibility/image-alt.js | failureTitle', formattedDefault: imageAlt!.title.en },
        'de',
      ),
    );
    expect(imageAlt!.title.de).not.toBe(imageAlt!.title.en);
    // Without Lighthouse's message paths the English title stands.
    const bare = { ...categories.lhr.mobile, i18n: undefined };
    expect(auditFailures(bare).find((f) => f.id === 'image-alt')!.title.de).toBe(imageAlt!.title.en);
  });

  it('bounds what it keeps: items per audit (counting all), audits per form factor, text', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      node: { type: 'node', selector: `img.n${i}`, snippet: `<img class="n${i}">`, nodeLabel: 'x'.repeat(400) },
    }));
    const lhr: CategoryResult = {
      categories: {
        accessibility: {
          score: 0.5,
          auditRefs: Array.from({ length: 60 }, (_, i) => ({ id: `audit-${i}`, weight: i % 5 })),
        },
      },
      audits: Object.fromEntries(
        Array.from({ length: 60 }, (_, i) => [
          `audit-${i}`,
          { title: `Audit ${i}`, score: 0, scoreDisplayMode: 'binary', details: { type: 'table', items: many } },
        ]),
      ),
    };
    const failures = auditFailures(lhr);
    expect(failures).toHaveLength(FAILURE_LIMITS.audits);
    expect(failures[0]!.weight).toBe(4);
    expect(failures[0]!.items).toHaveLength(FAILURE_LIMITS.items);
    expect(failures[0]!.item_count).toBe(25);
    expect(failures[0]!.items[0]!.label!.length).toBe(FAILURE_LIMITS.text);
    expect(categoryScores(lhr)).toEqual({ performance: null, accessibility: 50, best_practices: null, seo: null });
  });

  it('leaves out passed, manual, informative and not-applicable audits', () => {
    const audit = (score: number | null, scoreDisplayMode: string) => ({ title: 't', score, scoreDisplayMode });
    const lhr: CategoryResult = {
      categories: {
        seo: {
          score: 0.9,
          auditRefs: ['passed', 'manual', 'informative', 'na', 'numeric-low'].map((id) => ({ id, weight: 1 })),
        },
      },
      audits: {
        passed: audit(1, 'binary'),
        manual: audit(0, 'manual'),
        informative: audit(0, 'informative'),
        na: audit(null, 'notApplicable'),
        'numeric-low': audit(0.5, 'numeric'),
      },
    };
    expect(auditFailures(lhr).map((f) => f.id)).toEqual(['numeric-low']);
  });
});

describe('the stored result and the API', () => {
  it('keeps each form factor’s scores and one entry per failed audit for both form factors', () => {
    const result = record(categories.obs);
    const lighthouse = result.lighthouse!;
    for (const factor of FORM_FACTORS)
      expect(lighthouse.categories[factor]).toEqual(categories.obs[factor].lighthouse!.categories);
    const ids = lighthouse.failures.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    const imageAlt = lighthouse.failures.find((f) => f.id === 'image-alt')!;
    expect(imageAlt.form_factors).toEqual(['desktop', 'mobile']);
    expect(imageAlt.items).toEqual([
      expect.objectContaining({ selector: 'body > main > img#no-alt', form_factors: ['desktop', 'mobile'] }),
    ]);
  });

  it('merges by element and keeps the lower score, the larger count', () => {
    const failure = (score: number, selectors: string[]) => ({
      id: 'image-alt',
      categories: ['accessibility' as const],
      title: { en: 'e', de: 'd' },
      help_url: null,
      weight: 10,
      score,
      item_count: selectors.length,
      items: selectors.map((selector) => ({ selector })),
    });
    const scores = { performance: 90, accessibility: 80, best_practices: 100, seo: 90 };
    const merged = scanLighthouse({
      desktop: { categories: scores, failures: [failure(0.5, ['img.a'])] },
      mobile: { categories: scores, failures: [failure(0, ['img.a', 'img.b'])] },
    });
    expect(merged.failures).toEqual([
      expect.objectContaining({
        score: 0,
        item_count: 2,
        form_factors: ['desktop', 'mobile'],
        items: [
          { selector: 'img.a', form_factors: ['desktop', 'mobile'] },
          { selector: 'img.b', form_factors: ['mobile'] },
        ],
      }),
    ]);
  });

  it('is the API’s extension `result.lighthouse`, valid by the OpenAPI schema, titled in the caller’s language', () => {
    const result = record(categories.obs);
    for (const locale of ['en', 'de'] as const) {
      const body = view(result, locale);
      expect(() => validate('body', resultSchema, structuredClone(body))).not.toThrow();
      expect(body.lighthouse!.categories).toEqual(result.lighthouse!.categories);
      const imageAlt = body.lighthouse!.failed_audits.find((f) => f.id === 'image-alt')!;
      expect(imageAlt.title).toBe(result.lighthouse!.failures.find((f) => f.id === 'image-alt')!.title[locale]);
    }
    // A result stored before scans ran the four categories has no extension, and still passes.
    const { lighthouse: _lighthouse, ...older } = result;
    const body = view(older);
    expect(body).not.toHaveProperty('lighthouse');
    expect(() => validate('body', resultSchema, structuredClone(body))).not.toThrow();
  });

  it('leaves our own scores as they were: the categories are Lighthouse’s, beside ours', () => {
    const { lighthouse: _lighthouse, ...observationWithout } = categories.obs.mobile;
    const without = { ...categories.obs, mobile: observationWithout, desktop: { ...categories.obs.desktop } };
    delete without.desktop.lighthouse;
    expect(scoreScan(without, new Date('2026-01-01')).scores).toEqual(
      scoreScan(categories.obs, new Date('2026-01-01')).scores,
    );
  });
});

describe('the report, share and compare pages', () => {
  const result = record(categories.obs);
  const page = (locale: 'en' | 'de', lighthouse: ScanLighthouse | null = result.lighthouse!) =>
    reportPage({
      scan: finishedScan({ ...result, lighthouse: lighthouse ?? undefined }),
      chrome: { locale },
      imageUrl: (name) => `/img/${name}`,
    });
  const cell = (html: string, factor: FormFactor, key: string) => {
    const row = html.slice(html.indexOf(`<tr data-form-factor="${factor}">`));
    const start = row.indexOf(`data-category="${key}"`);
    return row.slice(start, row.indexOf('</td>', start));
  };

  it('shows Lighthouse’s four scores of each form factor beside ours, with the line telling them apart', () => {
    for (const locale of ['en', 'de'] as const) {
      const html = page(locale);
      expect(html.indexOf('id="scores"')).toBeLessThan(html.indexOf('id="lighthouse-scores"'));
      for (const factor of FORM_FACTORS)
        for (const { key, id } of LIGHTHOUSE_CATEGORIES)
          expect(cell(html, factor, key)).toContain(
            `data-value="${percent(categories.lhr[factor].categories[id]!.score)}"`,
          );
      expect(html).toContain('id="which-scores"');
    }
    expect(page('en')).toContain('The round scores are ours');
    expect(page('en')).toContain('<caption>Lighthouse’s scores</caption>');
    expect(page('de')).toContain('Die runden Scores sind unsere');
    expect(page('de')).toContain('<th scope="col">Barrierefreiheit</th>');
  });

  it('lists the failed audits per category with the elements Lighthouse names, in English and German', () => {
    const en = page('en');
    const section = en.slice(en.indexOf('id="lighthouse-audits"'));
    expect(section).toContain('<h2>Accessibility, best practices and SEO</h2>');
    for (const named of [
      'body &gt; main &gt; img#no-alt',
      'body &gt; main &gt; a#empty-link',
      'body &gt; main &gt; p#faint',
    ])
      expect(section).toContain(named);
    expect(section).toContain('click here');
    expect(section).toContain('fixture: a script failed');
    expect(section).toContain('data-audit="meta-description"');
    // image-alt counts in accessibility and SEO: listed under both.
    expect(section.split('data-audit="image-alt"')).toHaveLength(3);
    const de = page('de');
    expect(de).toContain('<h2>Barrierefreiheit, Best Practices und SEO</h2>');
    const germanTitle = result.lighthouse!.failures.find((f) => f.id === 'image-alt')!.title.de;
    expect(de).toContain(String(lighthouseTitle(germanTitle)));
    expect(de).toContain('Mehr erfahren');
  });

  it('shows neither part for a result stored before scans ran the four categories', () => {
    const html = page('en', null);
    expect(html).not.toContain('lighthouse-scores');
    expect(html).not.toContain('lighthouse-audits');
  });

  it('says so when Lighthouse failed nothing outside performance', () => {
    const clean = record(fast.obs).lighthouse!;
    expect(page('en', { ...clean, failures: [] })).toContain('Lighthouse failed no audit in accessibility');
  });

  it('renders Lighthouse’s code spans as code, the rest as escaped text', () => {
    expect(String(lighthouseTitle('Image elements do not have `[alt]` attributes <b>'))).toBe(
      'Image elements do not have <code>[alt]</code> attributes &lt;b&gt;',
    );
  });

  it('compares the four scores of two scans per form factor', () => {
    const before = finishedScan(record(categories.obs), { publicId: 'a'.repeat(26) });
    const after = finishedScan(record(fast.obs), { publicId: 'b'.repeat(26) });
    const html = comparePage({ chrome: { locale: 'en' }, before, after, imageUrl: () => '/x.jpg' });
    const table = html.slice(html.indexOf('id="compare-lighthouse-mobile"'));
    const start = table.indexOf('data-category="accessibility"');
    const row = table.slice(start, table.indexOf('</tr>', start));
    const [x, y] = [
      before.result!.lighthouse!.categories.mobile.accessibility!,
      after.result!.lighthouse!.categories.mobile.accessibility!,
    ];
    expect(row).toContain(`>${x}</span>`);
    expect(row).toContain(`>${y}</span>`);
    expect(row).toContain(`+${y - x}`);
    expect(row).toContain('data-change="better"');
    expect(comparePage({ chrome: { locale: 'de' }, before, after, imageUrl: () => '/x.jpg' })).toContain(
      'Scores von Lighthouse',
    );
    // Either scan without them: no part.
    const older = finishedScan({ ...record(fast.obs), lighthouse: undefined }, { publicId: 'c'.repeat(26) });
    expect(comparePage({ chrome: { locale: 'en' }, before, after: older, imageUrl: () => '/x.jpg' })).not.toContain(
      'compare-lighthouse',
    );
  });
});

test('formFactorLighthouse is the scores and the failures together', () => {
  const lhr = categories.lhr.desktop;
  expect(formFactorLighthouse(lhr)).toEqual({ categories: categoryScores(lhr), failures: auditFailures(lhr) });
});
