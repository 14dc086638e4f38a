import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { Lhr } from '../../fixtures/actionable-results.ts';
import { CLUES_PATH } from '../../fixtures/clues-page.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { call, createTestUser } from '../harness/api.ts';
import { type ApiFinding, expectCluesNamed, expectReportNamesClues } from '../harness/clues-report.ts';
import { openApiContract } from '../harness/contract.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Lighthouse's clues in a real scan, end to end: the API starts a scan of /clues/ (fixtures/clues-page.ts: a
 * lazy-loaded LCP image without fetchpriority, an image without dimensions and a web font that shift the page, a
 * font that hides text, a library bundled twice, a legacy polyfill), the real worker runs Lighthouse, and the
 * API's findings and the report page must name each problem with its element and Lighthouse's savings, in the
 * order of what they save, as Lighthouse's own JSON of the same run (stored with the scan) says. The same checks
 * run in the unit lane over a recorded run of the page (test/unit/lighthouse-clues.test.ts).
 */
let sites: FixtureSites;
let stack: ScanStack;
let owner: { token: string; email: string };
let scan: { public_id: string; status: string; result: { findings: ApiFinding[] } };
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

it('shows them on the report page, the three that save most first, in English and German', async () => {
  const client = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await client.signIn(owner.email, PASSWORD)).status).toBe(303);
  const report = await client.get(`/reports/${scan.public_id}`);
  expect(report.status).toBe(200);
  expectReportNamesClues(report.text, scan.result.findings);
  const german = new WebClient(stack.api.url, stack.api.config.baseUrl, { 'accept-language': 'de' });
  expect((await german.signIn(owner.email, PASSWORD)).status).toBe(303);
  const bericht = (await german.get(`/reports/${scan.public_id}`)).text;
  expect(bericht).toContain('Zuerst beheben');
  expect(bericht).toContain('Entfernen Sie loading=&quot;lazy&quot;');
  expect(bericht).toContain('ein Bild ohne Breite und Höhe, verschob');
});
