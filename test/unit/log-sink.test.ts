import { createLogger } from '../../infra/logger.ts';
import { registerSecret, registerSecretsIn, secretsIn } from '../harness/log-sink.ts';

/** The suite's secret-in-logs check (test/harness/log-sink.ts) finds what it is meant to find, and nothing else. */
const lines = (...entries: object[]) => entries.map((e) => JSON.stringify(e)).join('\n');

it('recognises our secrets by their form', () => {
  const found = secretsIn(
    lines(
      { msg: 'token wpt_AbCdEfGhIjKlMnOpQrStUvWx used' },
      { msg: 'secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      { headers: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.payload' } },
      { headers: { authorization: 'Basic dXNlcjpwYXNzd29yZA==' } },
      { headers: { cookie: 'wps_session=0123456789abcdef' } },
    ),
  );
  expect(found.map((leak) => leak.kind)).toEqual([
    'API token',
    'webhook signing secret',
    'bearer credential',
    'basic credential',
    'session cookie',
  ]);
  for (const leak of found) expect(leak.line).not.toMatch(/AbCdEfGh|MfKQ9r8G|eyJhbGci|dXNlcjpw|0123456789abcdef/);
});

it('finds the values the harness registered, at any depth of a request body', () => {
  registerSecret('correct horse battery');
  registerSecretsIn({
    url: 'https://example.com/',
    auth: { type: 'header', header_name: 'X-Key', header_value: 'hv-7f3a9c' },
    nested: [{ password: 'pw-c0ffee42' }],
  });
  expect(secretsIn(lines({ msg: 'sign-in', body: 'correct horse battery' }))).toHaveLength(1);
  expect(secretsIn(lines({ header: 'hv-7f3a9c' }))).toHaveLength(1);
  expect(secretsIn(lines({ note: 'pw-c0ffee42' }))).toHaveLength(1);
  // Only values under keys that name a secret; short values are ignored as too likely by chance.
  registerSecretsIn({ url: 'https://registered-by-mistake.example/' });
  registerSecret('abc');
  expect(secretsIn(lines({ url: 'https://registered-by-mistake.example/', port: 'abc' }))).toEqual([]);
});

it('passes ordinary log lines, including what the logger redacted', () => {
  let output = '';
  const log = createLogger({ logLevel: 'info' }, 'api', { write: (line: string) => void (output += line) });
  log.info(
    {
      req: { method: 'GET', url: '/api/v1/scans', headers: { authorization: 'Bearer wpt_SecretSecretSecret0123' } },
      auth: { password: 'pw-c0ffee42' },
    },
    'request',
  );
  log.info({ scanId: 'scn_01JZ8Q', tokenPrefix: 'wpt_abcd' }, 'scan queued');
  expect(output).toContain('[redacted]');
  expect(secretsIn(output)).toEqual([]);
});
