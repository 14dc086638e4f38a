import { FAILURE_TEXTS } from '../../core/i18n/failures.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';

/**
 * What users read about a failed scan is the failure code's own text, in their language, in the API and on
 * the report page; the details (the address a host resolved to, the runner's stderr with its stack and
 * paths) go to the worker's log with the scan id. The worker's asset folder cannot be created, so storing
 * a scan's images crashes the runner: a scan_error after Temporal's retries.
 */
let stack: ScanStack;
let sites: FixtureSites;
let token: string;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ runner: 'replay', env: { ASSETS_DIR: '/dev/null/assets' } });
  ({ token } = await createTestUser(stack.api, 'pro'));
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

async function scan(path: string): Promise<string> {
  const created = await call(stack.api, '/scans', {
    token,
    method: 'POST',
    body: { url: `${sites.origin}${path}`, public: true },
  });
  expect(created.status).toBe(202);
  return (created.body.data as { id: string }).id;
}

/** Everything a user can see about the scan: its detail and list item in both languages, and its report page. */
async function userVisible(
  id: string,
): Promise<{ detail: Record<string, unknown>; german: Record<string, unknown>; listed: unknown; report: string }> {
  const detail = (await call(stack.api, `/scans/${id}`, { token })).body.data as Record<string, unknown>;
  const german = (await call(stack.api, `/scans/${id}`, { token, headers: { 'accept-language': 'de-DE,de;q=0.9' } }))
    .body.data as Record<string, unknown>;
  const listed = ((await call(stack.api, '/scans?limit=50', { token })).body.data as Array<{ public_id: string }>).find(
    (s) => s.public_id === id,
  );
  const reportResponse = await fetch(`${stack.api.url}/reports/${id}`);
  expect(reportResponse.status).toBe(200);
  const report = /<section id="failed">[\s\S]*?<\/section>/.exec(await reportResponse.text())?.[0] ?? '';
  return { detail, german, listed, report };
}

it('a blocked_address failure names neither the host nor the address it resolved to; the log does, with the scan id', async () => {
  const id = await scan('/to-internal/');
  expect(await waitForScan(stack.api, token, id)).toMatchObject({
    status: 'failed',
    error: { code: 'blocked_address' },
  });
  const seen = await userVisible(id);
  expect(seen.detail.error).toEqual({ code: 'blocked_address', message: FAILURE_TEXTS.en.blocked_address });
  expect(seen.german.error).toEqual({ code: 'blocked_address', message: FAILURE_TEXTS.de.blocked_address });
  expect(seen.listed).toMatchObject({ error: { code: 'blocked_address', message: FAILURE_TEXTS.en.blocked_address } });
  expect(seen.report).toContain(FAILURE_TEXTS.en.blocked_address);
  for (const shown of [JSON.stringify([seen.detail, seen.german, seen.listed]), seen.report]) {
    expect(shown).not.toContain('0.0.0.0');
    expect(shown).not.toMatch(/resolves to [^ ]+, a private/); // the runner's own wording
  }
  const logged = stack.worker
    .output()
    .split('\n')
    .find((line) => line.includes(`"scanId":"${id}"`) && line.includes('blocked_address'));
  expect(logged).toContain('0.0.0.0');
}, 240_000);

it('a scan_error shows no stderr, stack or path; the log has them, with the scan id', async () => {
  const id = await scan('/fast/');
  expect(await waitForScan(stack.api, token, id)).toMatchObject({ status: 'failed', error: { code: 'scan_error' } });
  const seen = await userVisible(id);
  expect(seen.detail.error).toEqual({ code: 'scan_error', message: FAILURE_TEXTS.en.scan_error });
  expect(seen.german.error).toEqual({ code: 'scan_error', message: FAILURE_TEXTS.de.scan_error });
  expect(seen.report).toContain(`scan_error</code>: ${FAILURE_TEXTS.en.scan_error}`);
  for (const shown of [JSON.stringify([seen.detail, seen.german, seen.listed]), seen.report]) {
    for (const detail of ['/dev/null', 'ENOTDIR', 'runner', 'exited', '.ts', 'node_modules', '    at ', ' at '])
      expect(shown).not.toContain(detail);
  }
  // Operators: every failed attempt in the worker's log with the scan id and the runner's stderr.
  const attempts = stack.worker
    .output()
    .split('\n')
    .filter((line) => line.includes(`"scanId":"${id}"`) && line.includes('scan attempt failed'));
  expect(attempts.length).toBeGreaterThanOrEqual(3);
  expect(attempts[0]).toContain('ENOTDIR');
}, 300_000);
