import { UIStrings as CulpritStrings } from '@paulirish/trace_engine/models/trace/insights/CLSCulprits.js';
import { UIStrings as ImageStrings } from '@paulirish/trace_engine/models/trace/insights/ImageDelivery.js';
import { UIStrings as BfCacheStrings } from 'lighthouse/core/audits/bf-cache.js';
import { bfCacheObservation, imageFixes, shiftCulprits } from '../../activities/lighthouse/clues.ts';
import { documentWrites } from '../../activities/lighthouse/document-write.ts';
import { resultView } from '../../api/views/scans.ts';
import { masterKey } from '../../core/keys.ts';
import { FORM_FACTORS, type FormFactor, type ScanObservation } from '../../core/scan/observation.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { actionableObservation, type Lhr } from '../../fixtures/actionable-results.ts';
import { CLUES_PATH, cluesResponse } from '../../fixtures/clues-page.ts';
import { finishedScan } from '../../fixtures/finished-scan.ts';
import { installedLighthouseVersion, readRecording, RECORD_COMMAND } from '../../fixtures/recorded-lighthouse.ts';
import { reportPage } from '../../web/scans/report-page.ts';
import {
  type ApiFinding,
  expectCluesNamed,
  expectDocumentWriteNamed,
  expectReportNamesClues,
} from '../harness/clues-report.ts';

/**
 * Lighthouse's clues over a recorded real run of /clues/ (fixtures/clues-page.ts), desktop and mobile, by the real
 * scan runner (fixtures/recorded/lighthouse-<version>/clues.json.br, `npm run record:lighthouse`): the runner's
 * extraction, the scoring, the API view and the report page are fed that run's Lighthouse results, and must name
 * each problem as Lighthouse's JSON does, with its savings, in the order of what they save. The document.write()
 * call is not in that JSON (Lighthouse 13 has no audit for it): the runner's observation of the same run, recorded
 * beside it, carries what it read of it from Lighthouse's console messages.
 * test/scans/clues-report.test.ts checks the same on a real scan.
 */
const ORIGIN = 'http://127.0.0.1:4321';
const lhr = {} as Record<FormFactor, Lhr>;
let obs: ScanObservation;
const finishedAt = new Date('2026-11-28T10:00:00Z');

beforeAll(() => {
  const version = installedLighthouseVersion();
  const recording = readRecording(version, `${ORIGIN}${CLUES_PATH}`);
  if (recording?.kind !== 'observation')
    throw new Error(`no recording of ${CLUES_PATH} for Lighthouse ${version}: run ${RECORD_COMMAND}`);
  for (const report of recording.reports) lhr[report.formFactor] = JSON.parse(report.json) as Lhr;
  expect(Object.keys(lhr).sort()).toEqual([...FORM_FACTORS].sort());
  ({ obs } = actionableObservation(lhr, `${ORIGIN}${CLUES_PATH}`));
  for (const factor of FORM_FACTORS) {
    const writes = recording.observation[factor]?.documentWrites;
    if (writes) obs[factor].documentWrites = writes;
  }
});

/** The page's own text, as the fixture site serves it. */
const pageSource = (url: string): string => {
  const response = cluesResponse(new URL(url).pathname);
  if (!response) throw new Error(`the fixture site serves nothing at ${url}`);
  return response.body.toString();
};

function view(locale: 'en' | 'de') {
  const record = buildResultRecord(obs, scoreScan(obs, finishedAt));
  const scan = finishedScan(record, { finishedAt });
  const keys = { current: masterKey(Buffer.alloc(32, 7)), previous: null };
  return {
    scan,
    findings: resultView(scan, { baseUrl: 'http://app.test', keys, locale, now: finishedAt }).findings as ApiFinding[],
  };
}

describe("reading Lighthouse's wording", () => {
  it("classifies the trace engine's own strings: image delivery's reasons and the layout shift causes", () => {
    const reasons = (reason: string) => imageFixes({ subItems: { items: [{ reason }] } });
    expect(reasons(ImageStrings.useModernFormat)).toEqual({ fixes: ['modern-format'] });
    expect(reasons(ImageStrings.useCompression)).toEqual({ fixes: ['compression'] });
    expect(reasons(ImageStrings.useVideoFormat)).toEqual({ fixes: ['video-format'] });
    expect(reasons(ImageStrings.useResponsiveSize.replace('{PH1}', '1200x700').replace('{PH2}', '396x231'))).toEqual({
      fixes: ['responsive-size'],
      file_px: '1200x700',
      shown_px: '396x231',
    });
    const cause = (text: string) =>
      shiftCulprits({ subItems: { items: [{ cause: text, extra: { type: 'url', value: 'https://a.test/x' } }] } })[0]
        ?.cause;
    expect(cause(CulpritStrings.unsizedImage)).toBe('unsized-image');
    expect(cause(CulpritStrings.webFont)).toBe('web-font');
    expect(cause(CulpritStrings.injectedIframe)).toBe('injected-iframe');
  });

  it("reads the document.write() calls from Lighthouse's console messages: Chromium's violations, counted from 1, each place once", () => {
    const violation = (url: string, lineNumber: number, columnNumber: number) => ({
      eventType: 'protocolLog',
      source: 'violation',
      level: 'verbose',
      text: 'Avoid using document.write(). https://developers.google.com/web/updates/2016/08/removing-document-write',
      url,
      lineNumber,
      columnNumber,
    });
    expect(
      documentWrites([
        violation('https://a.test/', 9, 17),
        violation('https://a.test/', 9, 17),
        violation('https://ads.test/tag.js', 0, 2047),
        {
          ...violation('https://a.test/', 3, 1),
          text: 'Only request geolocation information in response to a user gesture.',
        },
        { ...violation('https://a.test/', 4, 1), source: 'javascript', level: 'warning' },
        violation('about:blank', 0, 0),
      ]),
    ).toEqual([
      { url: 'https://a.test/', line: 10, column: 18 },
      { url: 'https://ads.test/tag.js', line: 1, column: 2048 },
    ]);
    expect(documentWrites(undefined)).toEqual([]);
  });

  it("reads Lighthouse's back/forward cache audit in its own words: restored, the blockers by kind, or nothing known", () => {
    expect(bfCacheObservation(undefined)).toBeUndefined();
    expect(bfCacheObservation({ score: null })).toBeNull();
    expect(bfCacheObservation({ score: 1 })).toEqual({ restored: true, blockers: [] });
    const row = (protocolReason: string, failureType: string, frames: string[]) => ({
      reason: 'text',
      failureType,
      protocolReason,
      subItems: { type: 'subitems', items: frames.map((frameUrl) => ({ frameUrl })) },
    });
    expect(
      bfCacheObservation({
        score: 0,
        details: {
          type: 'table',
          items: [
            row('UnloadHandlerExistsInMainFrame', BfCacheStrings.actionableFailureType, [
              'https://a.test/',
              'https://a.test/',
            ]),
            row('WebRTC', BfCacheStrings.supportPendingFailureType, ['https://a.test/']),
            row('BackForwardCacheDisabled', BfCacheStrings.notActionableFailureType, []),
          ],
        },
      }),
    ).toEqual({
      restored: false,
      blockers: [
        { reason: 'UnloadHandlerExistsInMainFrame', type: 'actionable', frames: ['https://a.test/'] },
        { reason: 'WebRTC', type: 'pending-support', frames: ['https://a.test/'] },
        { reason: 'BackForwardCacheDisabled', type: 'circumstantial', frames: [] },
      ],
    });
  });
});

describe('the clues of a recorded run of /clues/', () => {
  it("name each problem with its element and Lighthouse's savings, in the order of what they save", () => {
    expectCluesNamed(view('en').findings, lhr);
  });

  it("name the page's document.write() call with its script, line and column, from the runner's observation of the same run", async () => {
    for (const factor of FORM_FACTORS) expect(obs[factor].documentWrites).toHaveLength(1);
    const call = await expectDocumentWriteNamed(view('en').findings, pageSource);
    const german = view('de').findings.find((f) => f.code === 'technical.document-write')!;
    expect(german.message).toContain(`in Zeile ${call.line}, Spalte ${call.column}`);
    expect(german.title).toBe('document.write() beim Laden der Seite');
  });

  it('read the back/forward cache test of the desktop load from the same JSON', () => {
    expect(obs.bfCache).toMatchObject({ restored: false });
  });

  it('are on the report page, the three that save most first, in English and German', () => {
    const { scan, findings } = view('en');
    const page = reportPage({ scan, chrome: { locale: 'en' }, imageUrl: (name) => `/img/${name}` });
    expectReportNamesClues(page, findings);
    const german = reportPage({ scan, chrome: { locale: 'de' }, imageUrl: (name) => `/img/${name}` });
    expect(german).toContain('Zuerst beheben');
    expect(german).toContain('Entfernen Sie loading=&quot;lazy&quot;');
    expect(view('de').findings.find((f) => f.code === 'speed.lcp-discovery')!.title).toBe('LCP-Bild spät angefordert');
    // The document.write() call with its place, in words.
    const call = findings.find((f) => f.code === 'technical.document-write')!.items![0]!;
    expect(page).toContain(`(line ${String(call.line)}, column ${String(call.column)})`);
    expect(german).toContain(`(Zeile ${String(call.line)}, Spalte ${String(call.column)})`);
  });
});
