import { resultSchema } from '../../api/views/scan-schemas.ts';
import { resultView } from '../../api/views/scans.ts';
import { validate } from '../../api/validation.ts';
import { masterKey } from '../../core/keys.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import { finishedScan } from '../../fixtures/finished-scan.ts';
import { reportPage } from '../../web/scans/report-page.ts';

/** A finished scan of this result record and the API's view of its result, in English. */
export function finishedResultView(record: ScanResultRecord, finishedAt: Date) {
  const scan = finishedScan(record, { finishedAt });
  const view = resultView(scan, {
    baseUrl: 'http://app.test',
    keys: { current: masterKey(Buffer.alloc(32, 7)), previous: null },
    locale: 'en',
    now: finishedAt,
  });
  return { scan, view };
}

/**
 * The actionable report of /actionable/ as a user gets it, for its unit test (a recorded run) and its integration
 * test (a real one): the API's view passes the OpenAPI schema of a result, and the report page names each fault
 * (the LCP element, the render-blocking stylesheet, the unsized image, the third party, the late hero, the main
 * thread's work) with its savings in time and bytes.
 */
export function expectReportNamesEachFault(record: ScanResultRecord, finishedAt: Date): void {
  const { scan, view } = finishedResultView(record, finishedAt);
  expect(() => validate('body', resultSchema, structuredClone(view))).not.toThrow();
  const page = reportPage({ scan, chrome: { locale: 'en' }, imageUrl: (name) => `/img/${name}` });
  for (const named of [
    'body &gt; main &gt; img#hero',
    '/actionable/blocking.css',
    'body &gt; main &gt; img.unsized',
    'localhost',
    '/actionable/hero.png',
    'Script Evaluation',
  ])
    expect(page).toContain(named);
  expect(page).toMatch(/Estimated savings: [^<]*\d+(\.\d)? (ms|s)[^<]*\d+(\.\d)? (KB|MB)/);
  expect(page).toContain('id="lcp-box-mobile"');
}
