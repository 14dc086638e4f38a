import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { REDACTED } from '../../core/redaction.ts';
import { call, createTestUser } from '../harness/api.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { startScanStack, waitForScan, type ScanDetail, type ScanStack } from '../harness/scans.ts';
import { ENCODINGS, formsIn, secretRunForms } from '../harness/secret-forms.ts';
import { rawRequest, WebClient } from '../harness/web.ts';

/**
 * An authenticated scan of a page that echoes its password in every way a page can: form-encoded and
 * lower-case percent-encoded in image, stylesheet and fetch URLs, HTML-escaped in attributes and text (named and
 * numeric references), in a JSON script block, and in what its script fetches. One real scan (real worker, Lighthouse and
 * Chromium); then every place the scan's data is stored or sent is searched for any run of 12 characters of the
 * password in any encoding (test/harness/secret-forms.ts): every Postgres row, the stored gzipped Lighthouse
 * results, the JSON and HTML reports, the API's scan, the report page, the share page and its reports. Sharing
 * warns that the page was seen signed in, and is refused for a result not checked clean.
 */
const USER = 'scan-user';
const PASSWORD = `Zebra Quartz & <Mango> "77" 'x'! Grüße ☃ naïve`;
const WEB_PASSWORD = 'redaction-owner-password';
registerSecret(PASSWORD);

const forms = secretRunForms([PASSWORD]);
let stack: ScanStack;
let site: Server;
let origin: string;
let owner: { token: string; email: string };
let scan: ScanDetail;

/** The fixture page: 403 without the password, and with it the password written everywhere. */
function echoPage(secret: string): string {
  const json = ENCODINGS.jsonInHtml!(secret);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Account</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/style.css?k=${ENCODINGS.percentLower!(secret)}">
<script type="application/json" id="state">{"password":"${json}"}</script></head>
<body><h1 id="who" title="${ENCODINGS.htmlNamed!(secret)}" style="font-size:48px">Signed in as ${ENCODINGS.htmlNamed!(secret)}</h1>
<p data-secret="${ENCODINGS.htmlDecimal!(secret)}">${ENCODINGS.htmlHex!(secret)}</p>
<img src="/pixel.svg?t=${ENCODINGS.form!(secret)}&amp;u=${ENCODINGS.escape!(secret)}" alt="${ENCODINGS.htmlNamed!(secret)}" width="400" height="300">
<script>
const state = JSON.parse(document.getElementById('state').textContent);
fetch('/api/echo?p=' + encodeURIComponent(state.password));
</script></body></html>`;
}

function startSite(): Promise<void> {
  site = createServer((req, res) => {
    const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const decoded = auth ? Buffer.from(auth[1]!, 'base64').toString('utf8') : '';
    if (decoded !== `${USER}:${PASSWORD}`) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('no');
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/style.css') return void res.writeHead(200, { 'content-type': 'text/css' }).end('p{color:#333}');
    if (path === '/pixel.svg')
      return void res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300"/></svg>');
    if (path === '/api/echo') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(echoPage(PASSWORD));
  });
  return new Promise((done) => site.listen(0, '127.0.0.1', () => done()));
}

const webUrl = (path: string) => `${stack.api.url}${path}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every form of the password found in a text, with where it was. */
const leaks = (where: string, text: string) => formsIn(text, forms).map((form) => ({ where, form }));

beforeAll(async () => {
  await startSite();
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  stack = await startScanStack();
  const created = await createTestUser(stack.api, 'pro', WEB_PASSWORD);
  owner = { token: created.token, email: created.user.email };
  const res = await call(stack.api, '/scans', {
    token: owner.token,
    method: 'POST',
    body: { url: `${origin}/account`, auth: { type: 'basic', username: USER, password: PASSWORD } },
  });
  expect(res.status).toBe(202);
  scan = await waitForScan(stack.api, owner.token, (res.body.data as { id: string }).id);
}, 600_000);

afterAll(async () => {
  await stack?.close();
  await new Promise((done) => site?.close(done));
});

it('scanned the page signed in, and what the page echoed stands redacted', async () => {
  expect(scan.status).toBe('finished');
  const json = (
    await rawRequest(webUrl(`/api/v1/scans/${scan.public_id}/lighthouse/desktop`), { headers: bearer(owner.token) })
  ).text;
  // The page's heading, its image URL and what its script fetched came through with the password replaced.
  expect(json).toContain(`Signed in as ${REDACTED}`);
  expect(json).toContain(`/pixel.svg?t=${REDACTED}`);
  expect(json).toContain(`/api/echo?p=${REDACTED}`);
});

it('keeps no run of 12 characters of the password, in any encoding, anywhere the scan is stored or sent', async () => {
  const id = scan.public_id;
  const found: Array<{ where: string; form: string }> = [];
  // Every row of every table of this file's database, and the stored Lighthouse results unzipped.
  const tables = (
    await stack.api.db.knex.raw<{ rows: Array<{ table_name: string }> }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    )
  ).rows.map((r) => r.table_name);
  for (const table of tables)
    found.push(
      ...leaks(`table ${table}`, JSON.stringify((await stack.api.db.knex.raw(`select * from "${table}"`)).rows)),
    );
  const stored = (await stack.api.db.knex('scan_lighthouse_reports').select('form_factor', 'content')) as Array<{
    form_factor: string;
    content: Buffer;
  }>;
  expect(stored.map((r) => r.form_factor).sort()).toEqual(['desktop', 'mobile']);
  for (const row of stored)
    found.push(...leaks(`stored ${row.form_factor} result`, gunzipSync(row.content).toString()));

  // The API: the scan and the Lighthouse JSON downloads.
  found.push(
    ...leaks('API scan', JSON.stringify((await call(stack.api, `/scans/${id}`, { token: owner.token })).body)),
  );
  for (const factor of ['desktop', 'mobile'])
    found.push(
      ...leaks(
        `API ${factor} JSON`,
        (await rawRequest(webUrl(`/api/v1/scans/${id}/lighthouse/${factor}`), { headers: bearer(owner.token) })).text,
      ),
    );

  // The web area: the report page and Lighthouse's own HTML report and JSON.
  const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await web.signIn(owner.email, WEB_PASSWORD)).status).toBe(303);
  const report = await web.get(`/reports/${id}`);
  expect(report.status).toBe(200);
  found.push(...leaks('report page', report.text));
  for (const path of ['desktop', 'mobile', 'desktop.json', 'mobile.json']) {
    const page = await web.get(`/reports/${id}/lighthouse/${path}`);
    expect(page.status).toBe(200);
    found.push(...leaks(`report ${path}`, page.text));
  }

  // Sharing: the share page and its reports, as anyone sees them.
  const shared = await call(stack.api, `/scans/${id}/share/enable`, { token: owner.token, method: 'POST', body: {} });
  expect(shared.status).toBe(200);
  const sharePath = new URL((shared.body.data as { share_url: string }).share_url).pathname;
  for (const path of [sharePath, ...['desktop', 'mobile', 'desktop.json'].map((p) => `${sharePath}/lighthouse/${p}`)]) {
    const page = await rawRequest(webUrl(path));
    expect(page.status).toBe(200);
    found.push(...leaks(path.replace(sharePath, 'share page'), page.text));
  }
  await call(stack.api, `/scans/${id}/share/disable`, { token: owner.token, method: 'POST', body: {} });
  expect(found).toEqual([]);
});

it('says on the report and when sharing that the page was seen signed in and the screenshots are not redacted', async () => {
  const id = scan.public_id;
  const row = await stack.api.db.knex('scans').where({ public_id: id }).first('secret_check', 'auth_secret');
  expect(row).toEqual({ secret_check: 'clean', auth_secret: null });
  const shared = await call(stack.api, `/scans/${id}/share/enable`, { token: owner.token, method: 'POST', body: {} });
  expect(shared.body.data).toMatchObject({
    share_enabled: true,
    signed_in: expect.stringMatching(/signed-in visitor/),
  });
  await call(stack.api, `/scans/${id}/share/disable`, { token: owner.token, method: 'POST', body: {} });
  const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await web.signIn(owner.email, WEB_PASSWORD)).status).toBe(303);
  const report = await web.get(`/reports/${id}`);
  expect(report.text).toContain('id="share-signed-in"');
  expect(report.text).toMatch(/id="signed-in-images">[^<]*not from the screenshots/);
});

it('refuses to share an authenticated scan whose stored result was not checked clean: 422 in the API, an error in the web area', async () => {
  const id = scan.public_id;
  const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await web.signIn(owner.email, WEB_PASSWORD)).status).toBe(303);
  for (const check of [null, 'found'] as const) {
    await stack.api.db.knex('scans').where({ public_id: id }).update({ secret_check: check });
    const res = await call(stack.api, `/scans/${id}/share/enable`, { token: owner.token, method: 'POST', body: {} });
    expect(res.status).toBe(422);
    expect((res.body as { errors: Record<string, string[]> }).errors.scan![0]).toMatch(/credentials.*cannot be shared/);
    const page = await web.get(`/reports/${id}`);
    expect(page.text).toContain('id="share-refused"');
    expect(page.text).not.toContain('id="share-on"');
    const posted = await web.post(`/reports/${id}/share/enable`, {});
    expect(posted.status).toBe(422);
    expect(posted.text).toMatch(/cannot be shared/);
    const after = await stack.api.db.knex('scans').where({ public_id: id }).first('share_enabled');
    expect(after).toEqual({ share_enabled: false });
  }
  await stack.api.db.knex('scans').where({ public_id: id }).update({ secret_check: 'clean' });
});
