import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import { auditRows, type Lhr } from '../../fixtures/actionable-results.ts';
import { CLUES_PATH } from '../../fixtures/clues-page.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { call, createTestUser } from '../harness/api.ts';
import {
  type ApiFinding,
  expectCluesNamed,
  expectDocumentWriteNamed,
  expectReportNamesClues,
} from '../harness/clues-report.ts';
import { openApiContract } from '../harness/contract.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Lighthouse's clues in a real scan, end to end: the API starts a scan of /clues/ (fixtures/clues-page.ts: a
 * lazy-loaded LCP image without fetchpriority, an image without dimensions and a web font that shift the page, a
 * font that hides text, a library bundled twice, a legacy polyfill, a document.write() call, an image without alt,
 * no meta description), the real worker runs Lighthouse, and the API's findings and the report page must name each
 * problem with its element and Lighthouse's savings, in the order of what they save, as Lighthouse's own JSON of
 * the same run (stored with the scan) says; the document.write() call, which that JSON does not hold, with its
 * script, line and column as the page served says. The same checks run in the unit lane over a recorded run of the
 * page (test/unit/lighthouse-clues.test.ts).
 */
let sites: FixtureSites;
let stack: ScanStack;
let owner: { token: string; email: string };
interface FailedAudit {
  id: string;
  form_factors: FormFactor[];
  items: Array<{ selector?: string }>;
}
let scan: {
  public_id: string;
  status: string;
  result: { findings: ApiFinding[]; lighthouse: { failed_audits: FailedAudit[] } };
};
const lhr = {} as Record<FormFactor, Lhr>;
const PASSWORD = 'owner-password-1';

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack();
  const user = await createTestUser(stack.api, 'pro', PASSWORD);
  owner = { token: user.token, email: user.user.email };
  const res = await call(stack.api, '/scans', {
    token: owner.token,
    method: 'POST',
    body: { url: `${sites.origin}${CLUES_PATH}` },
  });
  if (res.status !== 202) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  const id = (res.body.data as { id: string }).id;
  scan = (await waitForScan(stack.api, owner.token, id)) as unknown as typeof scan;
  for (const factor of FORM_FACTORS) {
    const stored = await fetch(`${stack.api.url}/api/v1/scans/${id}/lighthouse/${factor}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    lhr[factor] = (await stored.json()) as Lhr;
  }
}, 420_000);

afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

it("names each problem with its element and Lighthouse's savings, in the order of what they save, in the API", async () => {
  expect(scan.status).toBe('finished');
  const detail = await call(stack.api, `/scans/${scan.public_id}`, { token: owner.token });
  expect((await openApiContract(stack.api))('GET', '/scans/{id}', detail)).toEqual([]);
  expectCluesNamed(scan.result.findings, lhr);
});

it("names the page's document.write() call with its script, line and column, in the page Lighthouse loaded", async () => {
  // Lighthouse's JSON keeps no console messages: the call's script is the document of the same run, and the line
  // named in it, as the site serves it, holds the call.
  const call = await expectDocumentWriteNamed(scan.result.findings, async (url) => (await fetch(url)).text());
  for (const factor of FORM_FACTORS) {
    expect(lhr[factor].mainDocumentUrl).toBe(call.url);
    expect(auditRows(lhr[factor].audits['network-requests'])).toContainEqual(
      expect.objectContaining({ url: call.url, resourceType: 'Document' }),
    );
  }
});

it('lists the image without alt and the missing meta description among Lighthouse’s failed audits, as its JSON says', async () => {
  const failed = new Map(scan.result.lighthouse.failed_audits.map((f) => [f.id, f]));
  for (const factor of FORM_FACTORS) {
    expect(lhr[factor].audits['image-alt']!.score).toBe(0);
    expect(lhr[factor].audits['meta-description']!.score).toBe(0);
    const selectors = auditRows(lhr[factor].audits['image-alt']).map(
      (row) => (row.node as { selector: string }).selector,
    );
    expect(selectors).toEqual(['body > main > img.logo']);
    expect(failed.get('image-alt')!.items.map((i) => i.selector)).toEqual(selectors);
  }
  expect(failed.get('image-alt')!.form_factors).toEqual([...FORM_FACTORS]);
  expect(failed.get('meta-description')!.form_factors).toEqual([...FORM_FACTORS]);
  const client = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await client.signIn(owner.email, PASSWORD)).status).toBe(303);
  const report = (await client.get(`/reports/${scan.public_id}`)).text;
  expect(report).toContain('data-audit="image-alt"');
  expect(report).toContain('data-audit="meta-description"');
});

it('shows them on the report page, the three that save most first, in English and German', async () => {
  const client = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await client.signIn(owner.email, PASSWORD)).status).toBe(303);
  const report = await client.get(`/reports/${scan.public_id}`);
  expect(report.status).toBe(200);
  expectReportNamesClues(report.text, scan.result.findings);
  const call = scan.result.findings.find((f) => f.code === 'technical.document-write')!.items![0]!;
  expect(report.text).toContain(`(line ${String(call.line)}, column ${String(call.column)})`);
  const german = new WebClient(stack.api.url, stack.api.config.baseUrl, { 'accept-language': 'de' });
  expect((await german.signIn(owner.email, PASSWORD)).status).toBe(303);
  const bericht = (await german.get(`/reports/${scan.public_id}`)).text;
  expect(bericht).toContain('Zuerst beheben');
  expect(bericht).toContain('Entfernen Sie loading=&quot;lazy&quot;');
  expect(bericht).toContain('ein Bild ohne Breite und Höhe, verschob');
  expect(bericht).toContain(`(Zeile ${String(call.line)}, Spalte ${String(call.column)})`);
  expect(bericht).toContain('Aufruf(e) von document.write()');
});
