import { createKnex } from '../../db/knex.ts';
import { planChangeCommand } from '../../services/plan-requests.ts';
import { SIGN_IN_THROTTLE } from '../../services/sign-in-throttle.ts';
import { createTestUser, type TestApi } from '../harness/api.ts';
import { uniqueName } from '../harness/isolated.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { startMailingApi } from '../harness/mailbox.ts';
import { WebClient, type RawResponse } from '../harness/web.ts';

/**
 * The smaller guards of the account pages, over HTTP against the real web area, Postgres and a real SMTP
 * server: one throttle for every current-password check, "forgot your password?" answering before any work that
 * depends on the address, no sign-up name in mail to an unverified address, the user's words in the operators'
 * upgrade mail, and the settings' way to the account's data.
 */
const PASSWORD = 'right password for guards';
const NEW_PASSWORD = 'another long phrase for later';
const OPERATORS = 'plans@operators.example';
const HOUR = 3_600_000;

let mailing: Awaited<ReturnType<typeof startMailingApi>>;
let api: TestApi;
let box: typeof mailing.box;

beforeAll(async () => {
  mailing = await startMailingApi({ OPERATOR_EMAIL: OPERATORS });
  ({ api, box } = mailing);
  registerSecret(PASSWORD);
  registerSecret(NEW_PASSWORD);
}, 60_000);

afterAll(async () => {
  await mailing?.close();
});

// Each test starts an hour after the last: the account-mail and sign-up throttles (per client, per hour) start afresh.
beforeEach(() => later(HOUR + 1000));

const later = (ms: number) => api.clock.set(new Date(api.clock.now.getTime() + ms));
const client = (headers: Record<string, string> = {}) => new WebClient(api.url, api.config.baseUrl, headers);

describe('current-password checks', () => {
  it(`share one throttle: after ${SIGN_IN_THROTTLE.perDevice} wrong guesses on any form, the right password is refused until the window passes`, async () => {
    const owner = await createTestUser(api, 'free', PASSWORD);
    const me = client();
    expect((await me.signIn(owner.user.email, PASSWORD)).status).toBe(303);
    const changePassword = async (current: string) => {
      await me.get('/settings');
      return me.post('/settings/password', { current_password: current, new_password: NEW_PASSWORD });
    };
    const changeEmail = async (password: string) => {
      await me.get('/account/email');
      return me.post('/account/email', { email: `${uniqueName('moved')}@example.com`, password });
    };
    const deleteAccount = async (password: string) => {
      await me.get('/settings/data');
      return me.post('/settings/data/delete', { password, confirmation: owner.user.email });
    };
    for (let i = 0; i < SIGN_IN_THROTTLE.perDevice; i++) {
      const guess = `wrong guess number ${i}`;
      const answer = await (i % 2 === 0 ? changePassword(guess) : changeEmail(guess));
      expect(answer.status).toBe(422);
    }
    const refusedPassword = await changePassword(PASSWORD);
    expect(refusedPassword.status).toBe(429);
    expect(refusedPassword.text).toContain('Too many wrong passwords.');
    expect(Number(refusedPassword.headers['retry-after'])).toBeGreaterThan(0);
    const refusedEmail = await changeEmail(PASSWORD);
    expect(refusedEmail.status).toBe(429);
    expect(refusedEmail.text).toContain('Too many wrong passwords.');
    expect((await deleteAccount(PASSWORD)).status).toBe(429);
    // Nothing was changed by the refused right guesses.
    expect((await client().signIn(owner.user.email, NEW_PASSWORD)).status).not.toBe(303);

    later(SIGN_IN_THROTTLE.windowMs + 1000);
    const changed = await changePassword(PASSWORD);
    expect([changed.status, changed.headers.location]).toEqual([303, '/settings?done=password#password']);
  });
});

describe('forgot your password?', () => {
  const without = (answer: RawResponse) => {
    // Only the date and the request's own id may differ.
    const { date: _date, 'x-request-id': _id, ...headers } = answer.headers;
    return { status: answer.status, headers, text: answer.text };
  };

  it('answers a known and an unknown address byte for byte the same', async () => {
    const known = (await createTestUser(api, 'free', PASSWORD)).user.email;
    const asker = client();
    await asker.get('/password/forgot');
    const forKnown = await asker.post('/password/forgot', { email: known });
    const forUnknown = await asker.post('/password/forgot', { email: `${uniqueName('nobody')}@example.com` });
    expect(forKnown.status).toBe(303);
    expect(without(forUnknown)).toEqual(without(forKnown));
    await box.mail(known, 'Reset your WebPerf password');
  });

  it('sends the answer before the link and the mail are prepared', async () => {
    const known = (await createTestUser(api, 'free', PASSWORD)).user;
    // A second connection holds the links' table: nothing can make or clear a link until it lets go.
    const holder = createKnex(api.db.databaseUrl, { min: 0, max: 1 });
    const trx = await holder.transaction();
    try {
      await trx.raw('lock table account_links in share row exclusive mode');
      const asker = client();
      await asker.get('/password/forgot');
      let deadline: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        asker.post('/password/forgot', { email: known.email }),
        new Promise<'no answer'>((done) => (deadline = setTimeout(() => done('no answer'), 20_000))),
      ]);
      clearTimeout(deadline);
      expect(answer === 'no answer' ? answer : [answer.status, answer.headers.location]).toEqual([
        303,
        '/password/forgot/sent',
      ]);
      expect(box.to(known.email)).toEqual([]);
      expect(await trx('account_links').where({ user_id: known.id }).select('id')).toEqual([]);
    } finally {
      await trx.commit();
      await holder.destroy();
    }
    // Once the table is free, the link is made and mailed, and it works.
    const link = box.link(await box.mail(known.email, 'Reset your WebPerf password'), '/password/reset');
    expect((await client().get(link)).status).toBe(200);
  });
});

describe('mail before the address is verified', () => {
  it('carries no name typed at sign-up; a verified account is greeted by name', async () => {
    const email = `${uniqueName('relay')}@example.com`;
    const name = 'Cheap pills at https://spam.example/buy now';
    const visitor = client();
    await visitor.get('/signup');
    expect((await visitor.post('/signup', { name, email, password: PASSWORD })).status).toBe(303);
    // The same address again (the "someone tried to sign up" notice) and a reset request: both unverified.
    await visitor.get('/signup');
    expect((await visitor.post('/signup', { name: 'Other', email, password: PASSWORD })).status).toBe(303);
    await visitor.get('/password/forgot');
    expect((await visitor.post('/password/forgot', { email })).status).toBe(303);
    const mails = [
      await box.mail(email, 'Confirm your e-mail address for WebPerf'),
      await box.mail(email, 'Someone tried to sign up with your address'),
      await box.mail(email, 'Reset your WebPerf password'),
    ];
    for (const mail of mails) {
      for (const part of [mail.text, mail.html, mail.subject]) {
        expect(part).not.toContain('spam.example');
        expect(part).not.toContain('Cheap pills');
      }
      expect(mail.text.startsWith('Hello,\n')).toBe(true);
    }

    const known = (await createTestUser(api, 'free', PASSWORD)).user;
    await visitor.post('/password/forgot', { email: known.email });
    expect((await box.mail(known.email, 'Reset your WebPerf password')).text.startsWith(`Hello ${known.name},\n`)).toBe(
      true,
    );
  });

  it('in German too', async () => {
    const email = `${uniqueName('relay-de')}@example.com`;
    const visitor = client({ 'accept-language': 'de' });
    await visitor.get('/signup');
    const name = 'Gewinn unter www.spam.example';
    expect((await visitor.post('/signup', { name, email, password: PASSWORD })).status).toBe(303);
    const mail = await box.mail(email, 'Bestätigen Sie Ihre E-Mail-Adresse für WebPerf');
    expect(mail.text.startsWith('Hallo,\n')).toBe(true);
    expect(mail.text + mail.html).not.toContain('spam.example');
  });
});

describe("the operators' upgrade mail", () => {
  it('puts the user’s message in a quoted block after the command, where it cannot pass for one', async () => {
    const user = (await createTestUser(api, 'free', PASSWORD)).user;
    const forged = [
      'Thanks!',
      '',
      'To make the change, run on a machine with the production configuration:',
      '  npm run ops -- user:plan --email evil@attacker.example --plan agency',
      '----- end of the user’s message -----',
    ].join('\r\n');
    const message = `${forged}\rline after a lone CR\u2028  npm run ops -- user:plan --email evil2@attacker.example --plan agency`;
    const me = client();
    await me.signIn(user.email, PASSWORD);
    await me.get('/settings/plan');
    const sent = await me.post('/settings/plan/request', { plan: 'pro', message });
    expect(sent.status).toBe(200);
    const mail = await box.mail(OPERATORS, `Plan change request: ${user.email} → Pro`);
    const lines = mail.text.split('\n');
    const command = lines.indexOf(`  ${planChangeCommand(user.email, 'pro')}`);
    const begin = lines.indexOf('----- begin of the user’s message -----');
    const end = lines.lastIndexOf('----- end of the user’s message -----');
    expect(command).toBeGreaterThan(0);
    expect(begin).toBeGreaterThan(command);
    expect(end).toBe(lines.length - 1 - (lines.at(-1) === '' ? 1 : 0));
    const quoted = lines.slice(begin + 1, end);
    expect(quoted.every((line) => line.startsWith('> '))).toBe(true);
    expect(quoted).toContain('> ----- end of the user’s message -----');
    expect(quoted).toContain('>   npm run ops -- user:plan --email evil2@attacker.example --plan agency');
    expect(lines.slice(0, begin).join('\n')).not.toContain('attacker.example');
    expect(lines.filter((line) => line.includes('npm run ops') && !line.startsWith('> '))).toEqual([lines[command]]);
    expect(mail.html).toContain('&gt; ----- end of the user’s message -----');
  });
});

describe('the settings', () => {
  it.each([
    ['en', 'Download my data or delete my account', 'Download my data'],
    ['de', 'Meine Daten herunterladen oder mein Konto löschen', 'Meine Daten herunterladen'],
  ])('link to the data page (%s)', async (language, label, onDataPage) => {
    const user = (await createTestUser(api, 'free', PASSWORD)).user;
    const me = client({ 'accept-language': language });
    await me.signIn(user.email, PASSWORD);
    const settings = await me.get('/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain(`<a href="/settings/data" id="data-link">${label}</a>`);
    const href = /<a href="([^"]+)" id="data-link">/.exec(settings.text)![1]!;
    const data = await me.get(href);
    expect(data.status).toBe(200);
    expect(data.text).toContain(onDataPage);
    expect(data.text).toContain('action="/settings/data/delete"');
  });
});
