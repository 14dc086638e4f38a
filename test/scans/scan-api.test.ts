import { unstorableMessage } from '../../http/input-guard.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { freePort } from '../harness/isolated.ts';

/**
 * The scan endpoints without a worker: scans stay queued, which is what these tests need (validation,
 * plan gates, limits, listing, sharing). The end-to-end behaviour with Lighthouse is in scan-flow.test.ts.
 */
let api: TestApi;
const clock = new TestClock(new Date('2026-11-22T10:00:00Z'));
beforeAll(async () => {
  api = await startTestApi({ clock });
});
afterAll(async () => {
  await api.close();
});

const post = (token: string, body: unknown) => call(api, '/scans', { token, method: 'POST', body });

describe('POST /scans validation', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await createTestUser(api, 'pro'));
  });

  it.each([
    [{}, { url: ['The url field is required.'] }],
    [{ url: '' }, { url: ['The url field is required.'] }],
    [{ url: 42 }, { url: ['The url must be a string.'] }],
    [{ url: 'ftp://example.com/' }, { url: ['The url must start with http:// or https://.'] }],
    [{ url: 'example.com' }, { url: ['The url must start with http:// or https://.'] }],
    [
      { url: 'https://user:pw@example.com/' },
      { url: ['The url must not contain a user name or password; use the auth object instead.'] },
    ],
    [{ url: 'https://intranet/' }, { url: ['The url host must be a domain name (with a dot) or an IP address.'] }],
    [{ url: 'http://10.1.2.3/' }, { url: ['The url must point to a public address.'] }],
    [{ url: 'https://example.com/', region: 'mars' }, { region: ['The region must be one of: local.'] }],
    [{ url: 'https://example.com/', public: 'yes' }, { public: ['The public must be true or false.'] }],
    [{ url: 'https://example.com/', colour: 'red' }, { colour: ['The colour field is not allowed.'] }],
    [
      { url: 'https://example.com/', auth: { type: 'basic', username: 'u' } },
      { auth: ['The auth field is required.'] },
    ],
    [
      { url: 'https://example.com/', auth: { type: 'digest' } },
      { 'auth.type': ['The auth.type must be one of: basic, header.'] },
    ],
    [
      { url: 'https://example.com/', auth: { type: 'header', header_name: 'Host', header_value: 'x' } },
      { 'auth.header_name': ['The auth.header_name may not be Host.'] },
    ],
    [
      { url: 'https://example.com/', auth: { type: 'header', header_name: 'Bad Name', header_value: 'x' } },
      { 'auth.header_name': ['The auth.header_name format is invalid.'] },
    ],
  ])('422 for %j', async (body, errors) => {
    const res = await post(token, body);
    expect(res.status).toBe(422);
    if (JSON.stringify(errors).includes('"auth":["The auth field is required."]')) {
      expect((res.body.errors as Record<string, string[]>)['auth.password']).toEqual([
        'The auth.password field is required.',
      ]);
    } else {
      expect(res.body.errors).toEqual(errors);
    }
    expect(typeof res.body.message).toBe('string');
  });

  const header = (header_name: string, header_value: string) => ({
    url: 'https://example.com/',
    auth: { type: 'header', header_name, header_value },
  });
  const basic = (username: string, password: string) => ({
    url: 'https://example.com/',
    auth: { type: 'basic', username, password },
  });
  it.each([
    ['a header value with CR LF', header('X-Key', 'secret\r\nX-Injected: 1'), 'auth.header_value'],
    ['a header value with LF', header('X-Key', 'secret\nmore'), 'auth.header_value'],
    ['a header value with NUL', header('X-Key', 'sec\u0000ret'), 'auth.header_value'],
    ['a header value with DEL', header('X-Key', 'sec\u007fret'), 'auth.header_value'],
    ['a header value with a C1 control', header('X-Key', 'sec\u0085ret'), 'auth.header_value'],
    ['a header value with leading white space', header('X-Key', ' secret'), 'auth.header_value'],
    ['a header name with CR LF', header('X-Key\r\nX-Injected', 'secret'), 'auth.header_name'],
    ['a header name with a colon', header('X-Key:', 'secret'), 'auth.header_name'],
    ['a basic user name with a colon', basic('user:name', 'pw'), 'auth.username'],
    ['a basic user name with LF', basic('user\nname', 'pw'), 'auth.username'],
    ['a basic password with CR LF', basic('user', 'pw\r\nX-Injected: 1'), 'auth.password'],
    ['a basic password with NUL', basic('user', 'p\u0000w'), 'auth.password'],
  ])('422 for %s', async (what, body, field) => {
    const res = await post(token, body);
    expect(res.status).toBe(422);
    // NUL is refused before the schema, as text Postgres cannot hold (http/input-guard.ts).
    const message = what.endsWith('with NUL') ? unstorableMessage(field) : `The ${field} format is invalid.`;
    expect(res.body).toEqual({ message: expect.any(String), errors: { [field]: [message] } });
  });

  it.each([
    ['a header value with inner spaces and tabs', header('Authorization', 'Bearer abc\tdef ghi')],
    ['a basic password with spaces, colons and non-ASCII letters', basic('user name', 'pä ss:wörd')],
    ['an empty basic password', basic('user', '')],
  ])('accepts %s', async (_, body) => {
    expect((await post(token, body)).status).toBe(202);
  });

  it('normalises the URL it stores and returns', async () => {
    const res = await post(token, { url: '  HTTP://Example.COM:80/a/../b?x=1#section ' });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-z]{26}$/),
      status: 'queued',
      url: 'http://example.com/b?x=1',
      cached: false,
      auth_type: null,
      finished_at: null,
    });
  });

  it('shows the running shape, and nothing else, while a scan is queued', async () => {
    const created = await post(token, { url: 'https://queued.example/' });
    const id = (created.body.data as { id: string }).id;
    const detail = await call(api, `/scans/${id}`, { token });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toEqual({
      public_id: id,
      report_url: `${api.config.baseUrl}/reports/${id}`,
      status: 'queued',
      submitted_url: 'https://queued.example/',
      region: 'local',
      auth_type: null,
    });
  });

  it('accepts auth on Pro, returns its type and never the credentials, and makes the scan private', async () => {
    const res = await post(token, {
      url: 'https://private.example/',
      public: true,
      auth: { type: 'header', header_name: 'X-Key', header_value: 'do-not-return' },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ auth_type: 'header' });
    expect(JSON.stringify(res.body)).not.toContain('do-not-return');
    const row = await api.db
      .knex('scans')
      .where({ public_id: (res.body.data as { id: string }).id })
      .first();
    expect(row.is_public).toBe(false);
    // Encrypted with the scan-credentials key, naming the master key it came from (for rotation).
    expect(row.auth_secret).toMatch(new RegExp(`^v2\\.${api.config.keys.current.id}\\.`));
    expect(row.auth_secret).not.toContain('do-not-return');
  });

  it('403 for auth without the Pro plan', async () => {
    const starter = await createTestUser(api, 'starter');
    const res = await post(starter.token, {
      url: 'https://example.com/',
      auth: { type: 'basic', username: 'u', password: 'p' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Authenticated scans need the Pro plan or higher.', required_plan: 'pro' });
    // The plan's 403 comes first, whatever else is wrong with the request.
    for (const body of [
      { auth: { type: 'basic' } },
      { url: 'nope', region: 'mars', auth: 5 },
      { url: 'https://example.com/', auth: null },
    ]) {
      expect(await post(starter.token, body)).toMatchObject({ status: 403, body: { required_plan: 'pro' } });
    }
    expect(await api.db.knex('scans').where({ user_id: starter.user.id })).toHaveLength(0);
  });

  it('never hands back a scan of the other visibility: public and private requests are separate scans', async () => {
    const { token } = await createTestUser(api, 'pro');
    const url = 'https://visibility.example/';
    const pub = (await post(token, { url, public: true })).body.data as { id: string };
    const priv = (await post(token, { url })).body.data as { id: string };
    expect(priv.id).not.toBe(pub.id);
    expect((await post(token, { url, public: true })).body.data).toMatchObject({ id: pub.id });
    expect((await post(token, { url, public: false })).body.data).toMatchObject({ id: priv.id });
  });

  it('404 for unknown and malformed ids, and for another user’s scan', async () => {
    const created = await post(token, { url: 'https://mine.example/' });
    const id = (created.body.data as { id: string }).id;
    const other = await createTestUser(api, 'pro');
    expect((await call(api, `/scans/${id}`, { token: other.token })).status).toBe(404);
    expect((await call(api, `/scans/${id}/share/enable`, { token: other.token, method: 'POST' })).status).toBe(404);
    expect((await call(api, '/scans/01jd0000000000000000000000', { token })).status).toBe(404);
    expect(await call(api, '/scans/not-an-id', { token })).toMatchObject({
      status: 404,
      body: { message: 'Not found.' },
    });
  });
});

describe('hourly scan limit', () => {
  it('429 past the plan’s hourly limit, with the moment it frees up; cache hits do not count', async () => {
    const { token } = await createTestUser(api, 'starter');
    for (let i = 0; i < 30; i++) {
      clock.set(new Date(Date.parse('2026-11-22T10:00:00Z') + i * 60_000));
      expect((await post(token, { url: `https://limit.example/${i}` })).status).toBe(202);
    }
    // The same URL again joins the queued scan: no new scan, so not counted and not refused.
    expect((await post(token, { url: 'https://limit.example/0' })).status).toBe(202);
    const over = await post(token, { url: 'https://limit.example/one-more' });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      message: 'Hourly scan limit reached (30 scans per hour on your plan).',
      error: 'hourly_scan_limit',
      limit: 30,
      reset_at: '2026-11-22T11:00:00+00:00',
    });
    expect(over.headers.get('retry-after')).toBe(String(31 * 60));
    clock.set('2026-11-22T11:00:01Z');
    expect((await post(token, { url: 'https://limit.example/one-more' })).status).toBe(202);
    clock.set('2026-11-22T10:00:00Z');
  });
});

describe('GET /scans', () => {
  it('lists only the caller’s scans, newest first, paginated and filtered', async () => {
    const { token } = await createTestUser(api, 'pro');
    const made: string[] = [];
    for (const url of ['https://one.example/', 'https://two.example/', 'https://three.example/'])
      made.push(((await post(token, { url })).body.data as { id: string }).id);
    await createTestUser(api, 'pro').then((other) => post(other.token, { url: 'https://someone-else.example/' }));

    const page1 = await call(api, '/scans?limit=2', { token });
    expect(page1.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    expect((page1.body.data as Array<{ public_id: string }>).map((s) => s.public_id)).toEqual([made[2], made[1]]);
    const page2 = await call(api, '/scans?limit=2&page=2', { token });
    expect((page2.body.data as Array<{ public_id: string }>).map((s) => s.public_id)).toEqual([made[0]]);
    const item = (page2.body.data as Array<Record<string, unknown>>)[0]!;
    expect(item).toMatchObject({ status: 'queued', submitted_url: 'https://one.example/', share_url: null });
    // `result` only on finished scans, `finished_at` only once a scan has ended.
    expect(item).not.toHaveProperty('result');
    expect(item).not.toHaveProperty('finished_at');

    expect((await call(api, '/scans?domain=two', { token })).body.meta).toMatchObject({ total: 1 });
    expect((await call(api, '/scans?domain=%25', { token })).body.meta).toMatchObject({ total: 0 });
    expect((await call(api, '/scans?status=finished', { token })).body.meta).toMatchObject({ total: 0 });
    expect((await call(api, '/scans?status=queued', { token })).body.meta).toMatchObject({ total: 3 });
    expect((await call(api, '/scans?page=9', { token })).body).toMatchObject({
      data: [],
      meta: { current_page: 9, total: 3, last_page: 1 },
    });
    expect((await call(api, '/scans?limit=51', { token })).status).toBe(422);
    expect((await call(api, '/scans?status=done', { token })).body.errors).toEqual({
      status: ['The status must be one of: queued, running, finished, failed.'],
    });
  });
});

describe('the OpenAPI document describes what the API sends', () => {
  it('for creation, queued scans, lists and share state, and the check catches drift', async () => {
    const { openApiContract } = await import('../harness/contract.ts');
    const conforms = await openApiContract(api);
    const { token } = await createTestUser(api, 'pro');
    const created = await post(token, { url: 'https://contract.example/' });
    expect(conforms('post', '/scans', created)).toEqual([]);
    expect(
      conforms(
        'post',
        '/scans',
        await post(token, {
          url: 'https://contract-auth.example/',
          auth: { type: 'basic', username: 'u', password: 'p' },
        }),
      ),
    ).toEqual([]);
    const id = (created.body.data as { id: string }).id;
    const detail = await call(api, `/scans/${id}`, { token });
    expect(conforms('get', '/scans/{id}', detail)).toEqual([]);
    expect(conforms('get', '/scans', await call(api, '/scans', { token }))).toEqual([]);
    expect(
      conforms(
        'post',
        '/scans/{id}/share/enable',
        await call(api, `/scans/${id}/share/enable`, { token, method: 'POST' }),
      ),
    ).toEqual([]);
    expect(
      conforms(
        'post',
        '/scans/{id}/share/disable',
        await call(api, `/scans/${id}/share/disable`, { token, method: 'POST' }),
      ),
    ).toEqual([]);
    expect(conforms('get', '/me', await call(api, '/me', { token }))).toEqual([]);
    // A body that drifted from the document is caught: an extra field, a missing one, a wrong type.
    const data = detail.body.data as Record<string, unknown>;
    expect(conforms('get', '/scans/{id}', { status: 200, body: { data: { ...data, extra: 1 } } })).not.toEqual([]);
    expect(conforms('get', '/scans/{id}', { status: 200, body: { data: { ...data, region: undefined } } })).not.toEqual(
      [],
    );
    expect(
      conforms('get', '/scans/{id}', { status: 200, body: { data: { ...data, status: 'finished' } } }),
    ).not.toEqual([]);
  });
});

describe('share links', () => {
  it('are created once, kept when disabled, the same URL when re-enabled, and the share page follows the state', async () => {
    const { token } = await createTestUser(api, 'starter');
    const id = ((await post(token, { url: 'https://shared.example/' })).body.data as { id: string }).id;
    const enabled = await call(api, `/scans/${id}/share/enable`, { token, method: 'POST' });
    expect(enabled.status).toBe(200);
    const shareUrl = (enabled.body.data as { share_url: string }).share_url;
    expect(enabled.body.data).toEqual({
      share_enabled: true,
      share_url: expect.stringMatching(new RegExp(`^${api.config.baseUrl}/share/[A-Za-z0-9_-]{32}$`)),
    });
    expect((await call(api, `/scans/${id}/share/enable`, { token, method: 'POST' })).body.data).toEqual({
      share_enabled: true,
      share_url: shareUrl,
    });
    const sharePath = new URL(shareUrl).pathname;
    expect((await fetch(`${api.url}${sharePath}`)).status).toBe(200);

    // No fields: an empty object or no body; anything else is refused like any other body.
    expect((await call(api, `/scans/${id}/share/enable`, { token, method: 'POST', body: { x: 1 } })).status).toBe(422);
    expect((await call(api, `/scans/${id}/share/enable`, { token, method: 'POST', body: {} })).status).toBe(200);
    expect(
      (
        await call(api, `/scans/${id}/share/disable`, {
          token,
          method: 'POST',
          body: 'plain',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect((await call(api, `/scans/${id}/share/disable`, { token, method: 'POST' })).body.data).toEqual({
      share_enabled: false,
    });
    expect((await fetch(`${api.url}${sharePath}`)).status).toBe(404);
    expect((await call(api, `/scans/${id}/share/enable`, { token, method: 'POST' })).body.data).toEqual({
      share_enabled: true,
      share_url: shareUrl,
    });
  });

  it('the report page of a private scan asks for sign-in; a public one is open to anyone', async () => {
    const { token } = await createTestUser(api, 'pro');
    const priv = ((await post(token, { url: 'https://report-private.example/' })).body.data as { id: string }).id;
    const pub = (
      (await post(token, { url: 'https://report-public.example/', public: true })).body.data as { id: string }
    ).id;
    const privRes = await fetch(`${api.url}/reports/${priv}`, { redirect: 'manual' });
    expect(privRes.status).toBe(302);
    expect(privRes.headers.get('location')).toBe(`/login?next=${encodeURIComponent(`/reports/${priv}`)}`);
    // The same answer for an id that does not exist: signed out, nobody learns which scans exist.
    const unknown = await fetch(`${api.url}/reports/01jd0000000000000000000000`, { redirect: 'manual' });
    expect([unknown.status, unknown.headers.get('location')]).toEqual([
      302,
      `/login?next=${encodeURIComponent('/reports/01jd0000000000000000000000')}`,
    ]);
    const pubRes = await fetch(`${api.url}/reports/${pub}`);
    expect(pubRes.status).toBe(200);
    expect(await pubRes.text()).toContain('https://report-public.example/');
  });
});

describe('when Temporal cannot be reached', () => {
  it('answers 503 with Retry-After, records the scan as failed with not_started, and does not count it', async () => {
    const closed = await freePort();
    const cut = await startTestApi({ env: { TEMPORAL_ADDRESS: `127.0.0.1:${closed}` } });
    try {
      const { token, user } = await createTestUser(cut, 'starter');
      const res = await call(cut, '/scans', {
        token,
        method: 'POST',
        body: { url: 'https://unreachable-temporal.example/' },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(res.body).toEqual({ message: 'The scan cannot be started right now; try again shortly.' });
      const [row] = await cut.db.knex('scans').where({ user_id: user.id });
      expect(row).toMatchObject({ status: 'failed', failure_code: 'not_started' });
      const detail = await call(cut, `/scans/${row.public_id}`, { token });
      expect(detail.body.data).toMatchObject({ status: 'failed', error: { code: 'not_started' } });
      // Not counted against the hourly limit: with a full hour's worth of such scans, the next request is still
      // refused only by Temporal (503), never by the limit (429).
      await cut.db.knex('scans').insert(
        Array.from({ length: 30 }, (_, i) => ({
          ...row,
          id: undefined,
          public_id: `${row.public_id.slice(0, 20)}${String(i).padStart(6, '0')}`,
          url: `https://unreachable-temporal.example/${i}`,
          cache_key: null,
        })),
      );
      expect(
        (
          await call(cut, '/scans', {
            token,
            method: 'POST',
            body: { url: 'https://unreachable-temporal.example/again' },
          })
        ).status,
      ).toBe(503);
    } finally {
      await cut.close();
    }
  }, 120_000);
});
