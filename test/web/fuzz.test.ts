import { createHash, randomBytes } from 'node:crypto';
import { newPublicId } from '../../core/ids.ts';
import { createUser } from '../../services/accounts.ts';
import { mintToken } from '../../services/tokens.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { uniqueName } from '../harness/isolated.ts';
import { rawRequest } from '../harness/web.ts';
import { createStorage } from '../../db/store/index.ts';

/**
 * Hostile input against every route and form of the web area: odd paths and query parameters on the pages,
 * forms with NUL bytes, very long values, repeated fields (arrays for scalars) and no CSRF token. Whatever
 * comes in, the answer is never a 5xx, and an error is an HTML page.
 */
let api: TestApi;
let scanId: string;
let shareToken: string;
let tokenId: number;
/** A flow of the signed-in user, for its budgets form. */
let flowId: string;
let session: { cookie: string; csrf: string };

let userId: number;

/**
 * A signed-in browser: a session row as sign-in makes it (sign-in itself is throttled, and the fuzz trips
 * the throttle) and the CSRF token its pages carry (bound to that session).
 */
async function newSession(): Promise<{ cookie: string; csrf: string }> {
  const value = randomBytes(32).toString('base64url');
  await api.db.knex('web_sessions').insert({
    id_hash: createHash('sha256').update(value).digest('hex'),
    user_id: userId,
    expires_at: new Date(Date.now() + 3600_000),
  });
  const cookie = `wps_session=${value}`;
  const page = await rawRequest(`${api.url}/settings`, { headers: { cookie } });
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page.text)![1]! };
}

beforeAll(async () => {
  api = await startTestApi();
  const email = `${uniqueName('fuzz')}@example.com`;
  const user = await createUser(createStorage(api.db.knex).users, {
    name: 'Fuzz',
    email,
    password: 'correct horse battery',
    plan: 'pro',
  });
  userId = user.id;
  ({
    record: { id: tokenId },
  } = await mintToken(createStorage(api.db.knex).tokens, user.id, 'fuzz', null));
  const { token } = await createTestUser(api, 'pro');
  scanId = (
    (await call(api, '/scans', { token, method: 'POST', body: { url: 'https://web-fuzz.example/', public: true } }))
      .body.data as { id: string }
  ).id;
  shareToken = (
    (await call(api, `/scans/${scanId}/share/enable`, { token, method: 'POST' })).body.data as { share_url: string }
  ).share_url
    .split('/')
    .at(-1)!;
  flowId = (
    await createStorage(api.db.knex).flows.insert({
      publicId: newPublicId(new Date()),
      userId,
      name: 'Fuzz',
      formFactor: 'desktop',
      steps: [
        { type: 'navigate', url: 'https://web-fuzz.example/' },
        { type: 'start_timespan', name: 'Search' },
      ],
      monitored: false,
      createdAt: new Date(),
    })
  ).publicId;
  session = await newSession();
}, 60_000);
afterAll(async () => {
  await api.close();
});

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** Forms carry the site's Origin (else every POST is a 403 before the form is read); node:http, as fetch in jest drops it. */
async function send(
  method: string,
  path: string,
  options: { cookie?: string; body?: string; type?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (method === 'POST') headers.origin = new URL(api.config.baseUrl).origin;
  if (options.body !== undefined) headers['content-type'] = options.type ?? 'application/x-www-form-urlencoded';
  const res = await rawRequest(`${api.url}${path}`, { method, headers, body: options.body });
  return { status: res.status, type: String(res.headers['content-type'] ?? ''), text: res.text };
}

/** 5xx, or an error (4xx) that is not an HTML page. */
const bad = (answer: Answer) => answer.status >= 500 || (answer.status >= 400 && !answer.type.startsWith('text/html'));
const describeAnswer = (what: string, answer: Answer) =>
  `${what} -> ${answer.status} ${answer.type} ${answer.text.slice(0, 120)}`;

const SEGMENTS = [
  '%00',
  'a%00b',
  '%ff',
  '%ED%A0%80',
  encodeURIComponent('💩'),
  'x'.repeat(3000),
  '..%2f..%2fetc%2fpasswd',
  '01jd0000000000000000000000',
  '-1',
  '%25',
];
const VALUES = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x'.repeat(5000),
  '//evil.example',
  '/\\evil',
  '💩',
  '-1',
  '99999999999999',
];

describe('fuzzed requests to every web page', () => {
  it('never answer 5xx, whatever the path segments and query parameters, signed in or not', async () => {
    const templates = [
      '/',
      '/login',
      '/signup',
      '/account/api',
      '/settings',
      '/reports/{id}',
      '/share/{token}',
      '/reports/{id}/lighthouse/desktop',
      '/share/{token}/lighthouse/mobile.json',
      '/reports/{id}/lighthouse/{id}',
      '/assets/{id}/{name}',
      '/flows/{id}',
      '/flows/{id}/runs/{id}',
      '/flows/{id}/compare',
      '/flows/{id}/budgets',
      '/nope/{id}',
    ];
    const failures: string[] = [];
    for (const cookie of [undefined, session.cookie]) {
      for (const template of templates) {
        const fills = template.includes('{') ? SEGMENTS : [''];
        for (const segment of fills) {
          const path = template
            .replace('{id}', segment)
            .replace('{token}', segment)
            .replace('{name}', 'desktop-final.jpg');
          for (const query of [
            new URLSearchParams(),
            ...['next', 'expires', 'signature', 'x'].flatMap((name) =>
              VALUES.map(
                (v) =>
                  new URLSearchParams([
                    [name, v],
                    [name, v],
                  ]),
              ),
            ),
          ].slice(0, 12)) {
            const target = `${path}${query.size ? `?${query}` : ''}`;
            const answer = await send('GET', target, { cookie });
            if (bad(answer)) failures.push(describeAnswer(`GET ${target.slice(0, 100)}`, answer));
          }
        }
      }
      // Real ids with odd names and odd query values.
      for (const value of VALUES) {
        for (const path of [
          `/assets/${scanId}/${new URLSearchParams({ v: value }).toString().slice(2)}`,
          `/share/${shareToken}?${new URLSearchParams({ x: value })}`,
          `/reports/${scanId}?${new URLSearchParams({ x: value })}`,
          `/reports/${scanId}/lighthouse/${new URLSearchParams({ v: value }).toString().slice(2)}`,
          `/share/${shareToken}/lighthouse/${new URLSearchParams({ v: value }).toString().slice(2)}`,
        ]) {
          const answer = await send('GET', path, { cookie });
          if (bad(answer)) failures.push(describeAnswer(`GET ${path.slice(0, 100)}`, answer));
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it.each([
    ['/reports/%00'],
    ['/assets/%00/x.jpg'],
    ['/share/%00'],
    [`/assets/${'0'.repeat(25)}%00/desktop-final.jpg`],
  ])('%s is a 404 HTML page', async (path) => {
    for (const cookie of [undefined, 'wps_session=x']) {
      const answer = await send('GET', path, { cookie });
      expect([answer.status, answer.type]).toEqual([404, 'text/html; charset=utf-8']);
    }
  });

  it('a NUL in a query parameter of a page is a 400 HTML page', async () => {
    const answer = await send('GET', '/login?next=%00');
    expect([answer.status, answer.type]).toEqual([400, 'text/html; charset=utf-8']);
  });
});

describe('fuzzed forms', () => {
  const forms: Array<{ path: () => string; fields: Record<string, string> }> = [
    {
      path: () => '/login',
      fields: { email: 'someone@example.com', password: 'wrong password', next: '/account/api' },
    },
    {
      path: () => '/signup',
      fields: { name: 'New', email: `${uniqueName('new')}@example.com`, password: 'long enough password' },
    },
    { path: () => '/account/api/tokens', fields: { name: 'fuzzed', expires: '2099-01-01' } },
    { path: () => `/account/api/tokens/${tokenId}/delete`, fields: {} },
    {
      path: () => '/flows',
      fields: { name: 'fuzzed', form_factor: 'desktop', 'steps/0/type': 'navigate', 'steps/0/url': 'web-fuzz.example' },
    },
    {
      path: () => '/flows/import',
      fields: { recording: '{"title":"x","steps":[{"type":"navigate","url":"https://a.example/"}]}' },
    },
    {
      path: () => `/flows/${flowId}/budgets`,
      // A budget the timespan does not have too: the service's refusal is a 422 like any.
      fields: {
        'budgets.0.lcp_ms': '2500',
        'budgets.0.scores.seo': '90',
        'budgets.1.inp_ms': '200',
        'budgets.1.lcp_ms': '1',
      },
    },
    { path: () => '/logout', fields: {} },
  ];

  it('never answer 5xx: NUL bytes, long values, repeated fields, no CSRF token, other content types', async () => {
    const failures: string[] = [];
    for (const form of forms) {
      const variants: Array<[string, URLSearchParams]> = [];
      for (const field of [...Object.keys(form.fields), '_csrf', 'extra']) {
        // 'ä' × 32: as many characters as a CSRF token, but twice the bytes.
        for (const value of [...VALUES, 'x'.repeat(15_000), 'ä'.repeat(32)]) {
          variants.push([
            `${field}=${value.slice(0, 10)}`,
            new URLSearchParams({ ...form.fields, _csrf: session.csrf, [field]: value }),
          ]);
        }
        const repeated = new URLSearchParams({ ...form.fields, _csrf: session.csrf });
        repeated.append(field, 'second');
        variants.push([`${field} twice`, repeated]);
      }
      variants.push(['no CSRF token', new URLSearchParams(form.fields)]);
      for (const [what, body] of variants) {
        // The delete form's token is gone after its first success: later variants then meet a 404, which is fine.
        const answer = await send('POST', form.path(), { cookie: session.cookie, body: body.toString() });
        if (bad(answer)) failures.push(describeAnswer(`POST ${form.path()} ${what}`, answer));
        if (answer.status === 303 && form.path() === '/logout') session = await newSession();
      }
      for (const type of ['application/json', 'text/plain', 'multipart/form-data; boundary=x']) {
        const answer = await send('POST', form.path(), {
          cookie: session.cookie,
          body: JSON.stringify(form.fields),
          type,
        });
        if (bad(answer)) failures.push(describeAnswer(`POST ${form.path()} as ${type}`, answer));
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it.each([
    ['sign-in', '/login', { email: 'a\u0000b@example.com', password: 'whatever password' }],
    ['sign-in', '/login', { email: 'someone@example.com', password: 'pass\u0000word' }],
    ['sign-up', '/signup', { name: 'N\u0000', email: 'nul@example.com', password: 'long enough password' }],
    ['sign-up', '/signup', { name: 'N', email: 'nul\u0000@example.com', password: 'long enough password' }],
    ['token', '/account/api/tokens', { name: 'to\u0000ken' }],
  ])('a NUL in the %s form is a 400 HTML page', async (_form, path, fields) => {
    const answer = await send('POST', path, {
      cookie: session.cookie,
      body: new URLSearchParams({ ...fields, _csrf: session.csrf }).toString(),
    });
    expect([answer.status, answer.type]).toEqual([400, 'text/html; charset=utf-8']);
  });
});
