import { loadConfig } from '../../infra/config.ts';
import { createStorage, type Storage } from '../../db/store/index.ts';
import { createUser } from '../../services/accounts.ts';
import {
  authHeaderOf,
  rotateSigningSecret,
  saveWebhookSettings,
  signingSecrets,
  webhookSettings,
  type WebhookSettingsDeps,
} from '../../services/webhook-settings.ts';
import { TestClock } from '../harness/api.ts';
import { isolatedPostgres, uniqueName, type IsolatedPostgres } from '../harness/isolated.ts';
import { baseTestEnv } from '../harness/shared.ts';

/** Notification settings against real Postgres: the spec's header save rules, encryption at rest, secret rotation, address checks. */

let db: IsolatedPostgres;
let storage: Storage;
const clock = new TestClock(new Date('2026-11-26T10:00:00Z'));
const keys = loadConfig(baseTestEnv()).keys;
const deps = (overrides: Partial<WebhookSettingsDeps> = {}): WebhookSettingsDeps => ({
  webhooks: storage.webhooks,
  keys,
  allowLoopback: true,
  clock: clock.read,
  ...overrides,
});
const form = (overrides: Partial<{ url: string; headerName: string; headerValue: string; events: string[] }> = {}) => ({
  url: 'https://hooks.example.com/in',
  headerName: '',
  headerValue: '',
  events: ['alert.triggered'],
  ...overrides,
});
/** Names resolve without DNS: `private.example.test` to a private address, everything else to a public one. */
const lookup = async (host: string) =>
  host === 'private.example.test' ? ['10.0.0.7'] : host === 'localhost' ? ['127.0.0.1'] : ['93.184.215.14'];

async function newUser(plan: 'starter' | 'pro') {
  return createUser(storage.users, {
    name: 'Hook Owner',
    email: `${uniqueName('w')}@example.com`,
    password: null,
    plan,
  });
}

beforeAll(async () => {
  db = await isolatedPostgres();
  storage = createStorage(db.knex);
});
afterAll(async () => db?.drop());

test('header save rules: set, keep on an empty value, remove on an empty name; the value is encrypted at rest', async () => {
  const user = await newUser('pro');
  const saved = await saveWebhookSettings(
    deps({ lookup }),
    user,
    form({ headerName: 'X-Webhook-Secret', headerValue: 's3cret' }),
  );
  expect(saved.status).toBe('saved');
  const [row] = await db.knex('webhook_endpoints').where({ user_id: user.id });
  expect(JSON.stringify(row)).not.toContain('s3cret');
  expect(authHeaderOf(deps(), (await storage.webhooks.findEndpoint(user.id))!)).toEqual({
    name: 'X-Webhook-Secret',
    value: 's3cret',
  });

  // Empty value: the stored one stays (the header may be renamed meanwhile).
  expect(
    (await saveWebhookSettings(deps({ lookup }), user, form({ headerName: 'Authorization', headerValue: '' }))).status,
  ).toBe('saved');
  expect(authHeaderOf(deps(), (await storage.webhooks.findEndpoint(user.id))!)).toEqual({
    name: 'Authorization',
    value: 's3cret',
  });

  // Empty name: the header goes, value and all.
  expect(
    (await saveWebhookSettings(deps({ lookup }), user, form({ headerName: '', headerValue: 'ignored' }))).status,
  ).toBe('saved');
  const endpoint = (await storage.webhooks.findEndpoint(user.id))!;
  expect(endpoint).toMatchObject({ headerName: null, headerValueSet: false, headerValueEncrypted: null });
  expect(authHeaderOf(deps(), endpoint)).toBeNull();
});

test("a header value copied into another user's row does not decrypt", async () => {
  const [a, b] = [await newUser('pro'), await newUser('pro')];
  await saveWebhookSettings(deps({ lookup }), a, form({ headerName: 'X-Secret', headerValue: 'only-for-a' }));
  await saveWebhookSettings(deps({ lookup }), b, form({ headerName: 'X-Secret', headerValue: 'for-b' }));
  const stolen = (await storage.webhooks.findEndpoint(a.id))!.headerValueEncrypted;
  await db.knex('webhook_endpoints').where({ user_id: b.id }).update({ header_value_encrypted: stolen });
  const tampered = (await storage.webhooks.findEndpoint(b.id))!;
  expect(tampered.headerValueEncrypted).toBe(stolen);
  expect(() => authHeaderOf(deps(), tampered)).toThrow();
});

test('URLs pointing to private or special-use addresses are refused at save; loopback only when allowed', async () => {
  const user = await newUser('pro');
  const refused = await saveWebhookSettings(deps({ lookup }), user, form({ url: 'https://private.example.test/hook' }));
  expect(refused).toEqual({ status: 'invalid', errors: { url: expect.stringContaining('private') } });
  expect(
    await saveWebhookSettings(deps({ lookup }), user, form({ url: 'http://169.254.169.254/latest' })),
  ).toMatchObject({ status: 'invalid' });
  expect(await saveWebhookSettings(deps({ lookup }), user, form({ url: 'http://[::ffff:10.0.0.1]/' }))).toMatchObject({
    status: 'invalid',
  });
  expect(
    await saveWebhookSettings(
      deps({ lookup, allowLoopback: false }),
      user,
      form({ url: 'http://localhost:8080/hook' }),
    ),
  ).toMatchObject({ status: 'invalid' });
  expect(
    await saveWebhookSettings(deps({ lookup, allowLoopback: true }), user, form({ url: 'http://localhost:8080/hook' })),
  ).toMatchObject({ status: 'saved' });
  expect((await storage.webhooks.findEndpoint(user.id))!.url).toBe('http://localhost:8080/hook');
});

test('below Pro the settings cannot be saved', async () => {
  const user = await newUser('starter');
  expect(await saveWebhookSettings(deps({ lookup }), user, form())).toEqual({ status: 'plan_required' });
  expect(await storage.webhooks.findEndpoint(user.id)).toBeUndefined();
});

test('rotating the signing secret: the previous one keeps signing for 24 hours', async () => {
  const user = await newUser('pro');
  const first = await webhookSettings(deps(), user.id);
  expect(first.secret).toMatch(/^whsec_/);
  expect(first.previousSecret).toBeNull();
  expect(JSON.stringify(await db.knex('webhook_endpoints').where({ user_id: user.id }))).not.toContain(
    first.secret.slice(6),
  );
  expect((await webhookSettings(deps(), user.id)).secret).toBe(first.secret);

  const rotated = await rotateSigningSecret(deps(), user.id);
  expect(rotated.secret).not.toBe(first.secret);
  expect(rotated.previousSecret).toEqual({ secret: first.secret, expiresAt: new Date('2026-11-27T10:00:00Z') });
  expect(signingSecrets(deps(), rotated.endpoint)).toEqual([rotated.secret, first.secret]);

  const later = new TestClock(new Date('2026-11-27T10:00:01Z'));
  expect(signingSecrets(deps({ clock: later.read }), rotated.endpoint)).toEqual([rotated.secret]);
});
