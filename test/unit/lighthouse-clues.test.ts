import { UIStrings as CulpritStrings } from '@paulirish/trace_engine/models/trace/insights/CLSCulprits.js';
import { UIStrings as ImageStrings } from '@paulirish/trace_engine/models/trace/insights/ImageDelivery.js';
import { UIStrings as BfCacheStrings } from 'lighthouse/core/audits/bf-cache.js';
import { bfCacheObservation, imageFixes, shiftCulprits } from '../../activities/lighthouse/clues.ts';
import { resultView } from '../../api/views/scans.ts';
import { masterKey } from '../../core/keys.ts';
import { FORM_FACTORS, type FormFactor, type ScanObservation } from '../../core/scan/observation.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { actionableObservation, type Lhr } from '../../fixtures/actionable-results.ts';
import { CLUES_PATH } from '../../fixtures/clues-page.ts';
import { finishedScan } from '../../fixtures/finished-scan.ts';
import { installedLighthouseVersion, readRecording, RECORD_COMMAND } from '../../fixtures/recorded-lighthouse.ts';
import { reportPage } from '../../web/scans/report-page.ts';
import { type ApiFinding, expectCluesNamed, expectReportNamesClues } from '../harness/clues-report.ts';

/**
 * Lighthouse's clues over a recorded real run of /clues/ (fixtures/clues-page.ts), desktop and mobile, by the real
 * scan runner (fixtures/recorded/lighthouse-<version>/clues.json.br, `npm run record:lighthouse`): the runner's
 * extraction, the scoring, the API view and the report page are fed that run's Lighthouse results, and must name
 * each problem as Lighthouse's JSON does, with its savings, in the order of what they save.
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
});

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
  });
});
