import { readFileSync } from 'node:fs';
import { CATALOGUE } from '../../core/i18n/catalogue.ts';
import { localiseFinding } from '../../core/i18n/findings.ts';
import { LOCALES } from '../../core/i18n/locale.ts';
import { cacheLifetimeSeconds } from '../../core/scoring/checks/caching.ts';
import { CHECKS, FINDING_CODES, scoreScan } from '../../core/scoring/index.ts';
import { withReference } from '../../core/scoring/reference.ts';
import { cleanObservation, formFactor, response, SCANNED_AT } from './observation-builder.ts';

const clean = scoreScan(cleanObservation(), SCANNED_AT);
const codesOf = (obs: Parameters<typeof scoreScan>[0]) => scoreScan(obs, SCANNED_AT).findings.map((f) => f.code);

describe('scoring a clean page', () => {
  it('gives high scores, no findings above info, and 100 for wordpress on a site that is not WordPress', () => {
    expect(clean.scores).toMatchObject({ speed: 95, images: 100, caching: 100, technical: 100, wordpress: 100 });
    expect(clean.isWordPress).toBe(false);
    expect(clean.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    // overall = (95*.5 + 100*.15 + 100*.15 + 100*.2) / 1.0
    expect(clean.scores.overall).toBe(Math.round(95 * 0.5 + 100 * 0.5));
  });
});

describe('each fault moves its category and is reported', () => {
  it('requests refused as internal are reported, without moving a score (the site may not be at fault)', () => {
    const obs = cleanObservation();
    obs.blockedRequests = ['10.0.0.7:80', '169.254.169.254:80'];
    const scored = scoreScan(obs, SCANNED_AT);
    expect(scored.findings).toContainEqual({
      category: 'technical',
      code: 'technical.blocked-requests',
      severity: 'info',
      params: { count: 2, first_target: '10.0.0.7:80' },
    });
    expect(scored.scores).toEqual(clean.scores);
  });

  it('heavy legacy images lower images', () => {
    const obs = cleanObservation();
    obs.responses.push(
      ...[1, 2, 3].map((i) =>
        response(`/photo-${i}.png`, {
          mimeType: 'image/png',
          resourceType: 'Image',
          transferBytes: 1_500_000,
          resourceBytes: 1_500_000,
        }),
      ),
    );
    const scored = scoreScan(obs, SCANNED_AT);
    expect(scored.scores.images).toBeLessThan(clean.scores.images);
    expect(scored.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['images.large-payload', 'images.modern-format']),
    );
    expect(scored.findings.find((f) => f.code === 'images.large-payload')!.severity).toBe('critical');
  });

  it('missing cache headers and compression lower caching', () => {
    const obs = cleanObservation();
    obs.responses.push(
      response('/vendor.js', {
        mimeType: 'application/javascript',
        resourceType: 'Script',
        resourceBytes: 200_000,
        transferBytes: 200_000,
        headers: {},
      }),
    );
    const scored = scoreScan(obs, SCANNED_AT);
    expect(scored.scores.caching).toBeLessThan(clean.scores.caching);
    expect(scored.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['caching.short-lifetime', 'caching.no-compression', 'caching.no-validators']),
    );
  });

  it('redirects, a slow server and an error status lower technical, each with its severity', () => {
    const one = scoreScan(cleanObservation({ redirects: [{ url: 'http://shop.example/', status: 301 }] }), SCANNED_AT);
    const two = scoreScan(
      cleanObservation({
        redirects: [
          { url: 'http://shop.example/', status: 301 },
          { url: 'https://www.shop.example/', status: 302 },
        ],
      }),
      SCANNED_AT,
    );
    expect(one.scores.technical).toBeLessThan(clean.scores.technical);
    expect(two.scores.technical).toBeLessThan(one.scores.technical);
    expect(one.findings.find((f) => f.code === 'technical.redirect-chain')!.severity).toBe('warning');
    expect(two.findings.find((f) => f.code === 'technical.redirect-chain')!.severity).toBe('critical');
    expect(
      scoreScan(cleanObservation({ ttfbMs: 900 }), SCANNED_AT).findings.find(
        (f) => f.code === 'technical.slow-server-response',
      )!.severity,
    ).toBe('warning');
    expect(
      scoreScan(cleanObservation({ ttfbMs: 2500 }), SCANNED_AT).findings.find(
        (f) => f.code === 'technical.slow-server-response',
      )!.severity,
    ).toBe('critical');
    expect(codesOf(cleanObservation({ ttfbMs: 500 }))).not.toContain('technical.slow-server-response');
    expect(scoreScan(cleanObservation({ httpStatus: 500 }), SCANNED_AT).findings[0]!.code).toBe('technical.http-error');
  });

  it('slow metrics are reported per form factor against the Web Vitals thresholds', () => {
    const obs = cleanObservation({
      mobile: formFactor({
        performanceScore: 0.3,
        metrics: { fcpMs: 3500, lcpMs: 4500, cls: 0.3, tbtMs: 700, speedIndexMs: 5000, interactiveMs: 6000 },
      }),
    });
    const scored = scoreScan(obs, SCANNED_AT);
    expect(scored.scores.speed).toBe(Math.round(((0.98 + 0.3) / 2) * 100));
    for (const code of ['speed.lcp-slow', 'speed.fcp-slow', 'speed.tbt-high', 'speed.cls-high']) {
      const finding = scored.findings.find((f) => f.code === code)!;
      expect(finding).toMatchObject({
        severity: 'critical',
        params: expect.objectContaining({ form_factor: 'mobile' }),
      });
    }
    expect(scored.findings.filter((f) => f.params.form_factor === 'desktop')).toEqual([]);
  });

  it('a busy machine adds an info finding', () => {
    expect(codesOf(cleanObservation({ desktop: formFactor({ benchmarkIndex: 300 }) }))).toContain(
      'speed.unreliable-measurement',
    );
  });
});

describe('WordPress', () => {
  const wordpress = () => {
    const obs = cleanObservation({ generator: 'WordPress 6.4.2' });
    obs.responses[0]!.headers['cache-control'] = 'no-cache, must-revalidate, max-age=0';
    obs.responses.push(
      ...Array.from({ length: 12 }, (_, i) =>
        response(`/wp-content/plugins/p${i}/x.js`, { mimeType: 'application/javascript', resourceType: 'Script' }),
      ),
    );
    obs.responses.push(
      response('/wp-includes/js/jquery/jquery-migrate.min.js', { resourceType: 'Script' }),
      response('/wp-includes/js/wp-emoji-release.min.js', { resourceType: 'Script' }),
    );
    return obs;
  };

  it('is detected, reported, scored below 100 and counted in overall', () => {
    const scored = scoreScan(wordpress(), SCANNED_AT);
    expect(scored.isWordPress).toBe(true);
    expect(scored.scores.wordpress).toBeLessThan(100);
    expect(
      scored.findings
        .filter((f) => f.category === 'wordpress')
        .map((f) => f.code)
        .sort(),
    ).toEqual([
      'wordpress.emoji-script',
      'wordpress.jquery-migrate',
      'wordpress.many-plugins',
      'wordpress.no-page-cache',
      'wordpress.version-exposed',
    ]);
    const { overall, speed, images, caching, technical, wordpress: wp } = scored.scores;
    expect(overall).toBe(Math.round((speed * 0.5 + images * 0.15 + caching * 0.15 + technical * 0.2 + wp * 0.1) / 1.1));
  });

  it('is detected from wp-content URLs or the REST API link header without a generator tag', () => {
    expect(
      scoreScan(
        cleanObservation({
          responses: [response('/'), response('/wp-content/themes/a/style.css', { resourceType: 'Stylesheet' })],
        }),
        SCANNED_AT,
      ).isWordPress,
    ).toBe(true);
    expect(
      scoreScan(
        cleanObservation({
          responses: [
            response('/', { headers: { link: '<https://shop.example/wp-json/>; rel="https://api.w.org/"' } }),
          ],
        }),
        SCANNED_AT,
      ).isWordPress,
    ).toBe(true);
  });
});

describe('the catalogue', () => {
  it('has every code any check emits, in every language, with every placeholder filled', () => {
    expect(FINDING_CODES.length).toBeGreaterThan(20);
    expect(new Set(FINDING_CODES).size).toBe(FINDING_CODES.length);
    for (const locale of LOCALES) expect(Object.keys(CATALOGUE[locale]).sort()).toEqual([...FINDING_CODES].sort());
    const params = {
      form_factor: 'mobile',
      value_ms: 4200,
      target_ms: 2500,
      value: 0.3,
      target: 0.1,
      benchmark_index: 300,
      total_bytes: 3_500_000,
      wasted_bytes: 900_000,
      count: 3,
      total: 5,
      status: 404,
      first_url: 'http://a.example/',
      first_target: '10.0.0.7:80',
      version: '6.4.2',
      score: 72,
      element: 'body > main > img#hero',
      length: 4,
      duration_ms: 1800,
      product: 'YouTube Embedded Player',
      actionable: 2,
      line: '12',
      column: '9',
    };
    for (const locale of LOCALES) {
      for (const code of FINDING_CODES) {
        const text = localiseFinding(
          { category: CHECKS.find((c) => c.codes.includes(code))!.category, code, severity: 'warning', params },
          locale,
        );
        for (const field of [text.title, text.message, text.recommendation]) {
          expect(field).not.toMatch(/\{[a-z_]+\}/);
          expect(field.length).toBeGreaterThan(5);
        }
      }
    }
  });

  it('formats numbers, sizes and durations for the language', () => {
    const finding = {
      category: 'speed' as const,
      code: 'speed.lcp-slow',
      severity: 'critical' as const,
      params: { form_factor: 'mobile', value_ms: 4200, target_ms: 2500 },
    };
    expect(localiseFinding(finding, 'en').message).toBe(
      'On mobile, the largest content appears after 4.2 s (target: 2.5 s).',
    );
    expect(localiseFinding(finding, 'de').message).toBe(
      'Auf Mobilgeräten erscheint der größte Inhalt erst nach 4,2 s (Ziel: 2,5 s).',
    );
  });
});

describe('cache lifetime parsing', () => {
  it.each([
    [{ 'cache-control': 'public, max-age=600' }, 600],
    [{ 'cache-control': 's-maxage=60, max-age=10' }, 10],
    [{ 'cache-control': 'max-age=10, s-maxage=60' }, 10],
    [{ 'cache-control': 's-maxage=31536000' }, 0],
    [{ 'cache-control': 'max-age="120"' }, 120],
    [{ 'cache-control': 'max-age=abc' }, 0],
    [{ 'cache-control': 'no-store' }, 0],
    [{ 'cache-control': 'no-cache, max-age=999' }, 0],
    [{}, 0],
    [{ expires: new Date(SCANNED_AT.getTime() + 3_600_000).toUTCString() }, 3600],
    [{ expires: new Date(SCANNED_AT.getTime() - 3_600_000).toUTCString() }, 0],
    [{ 'cache-control': 'max-age=5', expires: new Date(SCANNED_AT.getTime() + 3_600_000).toUTCString() }, 5],
  ])('for the browser: %j → %i s (s-maxage is for shared caches)', (headers, seconds) => {
    expect(cacheLifetimeSeconds(headers, SCANNED_AT)).toBe(seconds);
  });

  it.each([
    [{ 'cache-control': 's-maxage=60, max-age=10' }, 60],
    [{ 'cache-control': 'max-age=10, s-maxage=60' }, 60],
    [{ 'cache-control': 'max-age=10' }, 10],
    [{ 'cache-control': 'private, max-age=600' }, 0],
    [{ 'cache-control': 's-maxage=60, no-cache' }, 0],
  ])('for a shared cache: %j → %i s (s-maxage first, nothing for private)', (headers, seconds) => {
    expect(cacheLifetimeSeconds(headers, SCANNED_AT, { shared: true })).toBe(seconds);
  });
});

describe('the scoring README', () => {
  it('carries the check tables generated from the checks themselves (npm run docs:scoring)', () => {
    const readme = readFileSync(new URL('../../core/scoring/README.md', import.meta.url), 'utf8');
    expect(withReference(readme)).toBe(readme);
    for (const check of CHECKS) expect(readme).toContain(`\`${check.id}\``);
  });
});
