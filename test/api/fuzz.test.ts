import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';

/**
 * Random hostile input against every endpoint that exists: random JSON, wrong types, huge strings, unicode,
 * odd methods and headers. Whatever comes in, the answer is JSON with a 2xx or 4xx status, never a 500.
 */
let api: TestApi;
let token: string;
beforeAll(async () => {
  api = await startTestApi();
  ({ token } = await createTestUser(api, 'agency'));
});
afterAll(async () => {
  await api.close();
});

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const STRINGS = [
  '',
  ' ',
  'null',
  '-1',
  '0',
  '1e309',
  'NaN',
  '../../etc/passwd',
  "'; drop table users; --",
  '<script>',
  '💩'.repeat(50),
  'x'.repeat(70_000),
  '\u0000',
  'ä',
];
function randomJson(depth = 0): unknown {
  switch (Math.floor(random() * (depth > 2 ? 5 : 7))) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308]);
    case 3:
      return pick(STRINGS);
    case 4:
      return pick(STRINGS).slice(0, 100);
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, () => [
          pick(['url', 'limit', 'page', 'ids', 'auth', 'force', pick(STRINGS).slice(0, 20)]),
          randomJson(depth + 1),
        ]),
      );
  }
}

describe('fuzzed input on every endpoint', () => {
  it('never answers 500 and always answers JSON', async () => {
    // Every endpoint the API has, read from its OpenAPI document (built from the same route list as the router).
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const templates = Object.keys(doc.paths);
    expect(templates.length).toBeGreaterThan(5);
    const paths = () =>
      pick(templates).replace(/\{[a-z_]+\}/g, () =>
        pick(['1', '-1', 'abc', '99999999999999999999', '%00', '💩', '01jd0000000000000000000000']),
      );
    const failures: string[] = [];
    for (let i = 0; i < 400; i++) {
      const path = paths();
      const query = new URLSearchParams(
        Object.entries({
          limit: pick(STRINGS).slice(0, 50),
          page: pick(STRINGS).slice(0, 50),
          [pick(STRINGS).slice(0, 10)]: 'x',
        }).slice(0, Math.floor(random() * 3)),
      ).toString();
      const method = pick(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS']);
      const body =
        method === 'GET'
          ? undefined
          : random() < 0.2
            ? pick(['{', '{"a":', 'not json', '\u0000'])
            : JSON.stringify(randomJson());
      const headers: Record<string, string> = {
        authorization:
          random() < 0.85
            ? `Bearer ${token}`
            : pick([
                'Bearer',
                'Basic x',
                `Bearer ${
                  pick(STRINGS)
                    .slice(0, 30)
                    .replace(/[^\x21-\x7e]/g, 'a') || 'a'
                }`,
              ]),
      };
      if (body !== undefined)
        headers['content-type'] = pick([
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
        ]);
      const res = await fetch(`${api.url}/api/v1${path}${query ? `?${query}` : ''}`, { method, headers, body });
      const text = await res.text();
      let json = true;
      try {
        JSON.parse(text);
      } catch {
        json = false;
      }
      if (res.status >= 500 || (method !== 'OPTIONS' && !json))
        failures.push(`${method} ${path}?${query} -> ${res.status} ${text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('never answers 500 to odd query parameters, on every endpoint and method', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const { token: pro } = await createTestUser(api, 'pro');
    const created = await call(api, '/scans', {
      token: pro,
      method: 'POST',
      body: { url: 'https://fuzz-query.example/' },
    });
    const scanId = (created.body.data as { id: string }).id;
    const VALUES = ['\u0000', 'a\u0000b', '%00', '\ud800', 'x'.repeat(5000), '-1', '1e309', '[]', '💩', '\\', "'", '%'];
    const failures: string[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      const path = template.replace(/\{[a-z_]+\}/g, scanId);
      for (const [method, operation] of Object.entries(operations)) {
        const names = [
          ...(operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
          'unknown',
          '\u0000',
        ];
        for (const name of names) {
          for (const value of VALUES) {
            // Arrays for scalars too: the same parameter twice.
            for (const query of [
              new URLSearchParams([[name, value]]),
              new URLSearchParams([
                [name, value],
                [name, 'x'],
              ]),
            ]) {
              const res = await fetch(`${api.url}/api/v1${path}?${query}`, {
                method: method.toUpperCase(),
                headers: { authorization: `Bearer ${pro}` },
              });
              const text = await res.text();
              if (res.status >= 500 || !text.startsWith('{'))
                failures.push(
                  `${method} ${path}?${query.toString().slice(0, 80)} -> ${res.status} ${text.slice(0, 120)}`,
                );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('text Postgres cannot store', () => {
  let pro: string;
  beforeAll(async () => {
    ({ token: pro } = await createTestUser(api, 'pro'));
  });

  it('a NUL in a query parameter is a 422 naming the parameter', async () => {
    const res = await call(api, '/scans?domain=%00', { token: pro });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.any(String), errors: { domain: [expect.stringContaining('domain')] } });
  });

  it.each([
    ['a NUL', { url: 'https://nul.example/\u0000' }, 'url'],
    ['a lone surrogate', { url: 'https://surrogate.example/\ud800' }, 'url'],
    [
      'a NUL in a nested field',
      { url: 'https://nested.example/', auth: { type: 'header', header_name: 'X-Key', header_value: 'a\u0000b' } },
      'auth.header_value',
    ],
    ['a NUL in a field name', { url: 'https://key.example/', 'x\u0000': 1 }, 'x\ufffd'],
  ])('%s in a JSON body is a 422 naming the field', async (_what, body, field) => {
    const res = await call(api, '/scans', { token: pro, method: 'POST', body });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors as object)).toEqual([field]);
  });

  it('a number too large for a number is a 422, not a page without a limit', async () => {
    for (const name of ['limit', 'page']) {
      const res = await call(api, `/scans?${name}=1e309`, { token: pro });
      expect([res.status, Object.keys(res.body.errors as object)]).toEqual([422, [name]]);
    }
  });

  it('an id path segment with a NUL is a 404', async () => {
    const res = await call(api, '/scans/%00', { token: pro });
    expect([res.status, res.body]).toEqual([404, { message: 'Not found.' }]);
  });
});
