import { createStorage } from '../../db/store/index.ts';
import { createTestUser, type TestApi } from '../harness/api.ts';
import { uniqueName } from '../harness/isolated.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { startMailingApi, tokenOf } from '../harness/mailbox.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Account takeover chains, end to end over HTTP against the real web area, Postgres and a real SMTP server:
 * a pending e-mail change after a password reset or change, "cancel this change" from the notice, an older
 * reset link after a newer one was used, and an account pre-hijacked by signing up with someone else's address.
 */
const VICTIM_PASSWORD = 'victim old password 1';
const RESET_PASSWORD = 'fresh violet harbour lamp';
const ATTACKER_PASSWORD = 'attacker chose this one 9';
const HOUR = 3_600_000;

let mailing: Awaited<ReturnType<typeof startMailingApi>>;
let api: TestApi;
let box: typeof mailing.box;

beforeAll(async () => {
  mailing = await startMailingApi();
  ({ api, box } = mailing);
  for (const secret of [VICTIM_PASSWORD, RESET_PASSWORD, ATTACKER_PASSWORD]) registerSecret(secret);
}, 60_000);

afterAll(async () => {
  await mailing?.close();
});

// Each test starts an hour after the last, so the account-mail throttle (per client, per hour) starts afresh.
beforeEach(() => later(HOUR + 1000));

const later = (ms: number) => api.clock.set(new Date(api.clock.now.getTime() + ms));
const client = () => new WebClient(api.url, api.config.baseUrl);
const emailOf = async (userId: number) =>
  ((await api.db.knex('users').where({ id: userId }).first('email')) as { email: string }).email;

const CONFIRM_SUBJECT = 'Confirm your new e-mail address for WebPerf';
const NOTICE_SUBJECT = 'Your WebPerf e-mail address is being changed';
const RESET_SUBJECT = 'Reset your WebPerf password';

/** The attacker, who knows the victim's password, asks to move the account to his own address. */
async function attackerAsksForChange(victimEmail: string, password: string) {
  const attacker = client();
  expect((await attacker.signIn(victimEmail, password)).status).toBe(303);
  const attackerEmail = `${uniqueName('attacker')}@example.com`;
  await attacker.get('/account/email');
  const asked = await attacker.post('/account/email', { email: attackerEmail, password });
  expect([asked.status, asked.headers.location]).toEqual([303, '/account/email/sent']);
  const confirm = box.link(await box.mail(attackerEmail, CONFIRM_SUBJECT), '/account/email/confirm');
  return { attacker, attackerEmail, confirm };
}

/** Follows a mailed link as whoever holds it: the page, then its form's button. */
async function follow(who: WebClient, linkPath: string, action: string, fields: Record<string, string> = {}) {
  expect((await who.get(linkPath)).status).toBe(200);
  return who.post(action, { token: tokenOf(linkPath), ...fields });
}

async function resetByMail(email: string, n: number, password = RESET_PASSWORD) {
  const victim = client();
  await victim.get('/password/forgot');
  expect((await victim.post('/password/forgot', { email })).status).toBe(303);
  const reset = await box.mail(email, RESET_SUBJECT, n);
  return { mail: reset, link: box.link(reset, '/password/reset'), victim, password };
}

describe('a pending e-mail change', () => {
  it('ends when the victim resets the password, as the reset mail says; an escaped link is older than the password', async () => {
    const victim = await createTestUser(api, 'free', VICTIM_PASSWORD);
    const { attacker, attackerEmail, confirm } = await attackerAsksForChange(victim.user.email, VICTIM_PASSWORD);
    const notice = await box.mail(victim.user.email, NOTICE_SUBJECT);
    expect(notice.text).toContain(attackerEmail);

    later(1000);
    const reset = await resetByMail(victim.user.email, 1);
    expect(reset.mail.text).toContain(
      "Setting a new password also cancels every pending change of your account's e-mail address",
    );
    const done = await follow(reset.victim, reset.link, '/password/reset', { password: RESET_PASSWORD });
    expect([done.status, done.headers.location]).toEqual([303, '/password/reset/done']);

    // The attacker's link, without a session or with one, changes nothing.
    later(1000);
    const refused = await follow(client(), confirm, '/account/email/confirm');
    expect(refused.status).toBe(404);
    expect(refused.text).toContain('This link does not work (any more)');
    expect(await emailOf(victim.user.id)).toBe(victim.user.email);
    expect((await attacker.get('/settings')).status).toBe(302);

    // Even a link that escaped being ended is older than the password, and does nothing.
    await api.db.knex('account_links').where({ purpose: 'email_change', user_id: victim.user.id }).update({
      used_at: null,
    });
    expect((await follow(client(), confirm, '/account/email/confirm')).status).toBe(404);
    expect(await emailOf(victim.user.id)).toBe(victim.user.email);
    expect((await client().signIn(attackerEmail, RESET_PASSWORD)).status).toBe(422);
  });

  it('ends when the owner changes the password in the settings', async () => {
    const victim = await createTestUser(api, 'free', VICTIM_PASSWORD);
    const { confirm } = await attackerAsksForChange(victim.user.email, VICTIM_PASSWORD);
    later(1000);
    const owner = client();
    await owner.signIn(victim.user.email, VICTIM_PASSWORD);
    await owner.get('/settings');
    const changed = await owner.post('/settings/password', {
      current_password: VICTIM_PASSWORD,
      new_password: RESET_PASSWORD,
    });
    expect([changed.status, changed.headers.location]).toEqual([303, '/settings?done=password#password']);
    later(1000);
    expect((await follow(client(), confirm, '/account/email/confirm')).status).toBe(404);
    expect(await emailOf(victim.user.id)).toBe(victim.user.email);
  });

  it('is cancelled from the notice to the old address, without a session, once', async () => {
    const victim = await createTestUser(api, 'free', VICTIM_PASSWORD);
    const { confirm } = await attackerAsksForChange(victim.user.email, VICTIM_PASSWORD);
    const notice = await box.mail(victim.user.email, NOTICE_SUBJECT);
    expect(notice.text).toContain('Cancel this change: ');
    const cancel = box.link(notice, '/account/email/cancel');
    expect(notice.html).toContain('>Cancel this change</a>');

    const reader = client();
    const page = await reader.get(cancel);
    expect(page.text).toContain('Cancel the change of address');
    const cancelled = await reader.post('/account/email/cancel', { token: tokenOf(cancel) });
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('The change of address is cancelled; your account keeps its address.');
    expect(cancelled.text).toContain('href="/password/forgot"');

    expect((await follow(client(), confirm, '/account/email/confirm')).status).toBe(404);
    expect(await emailOf(victim.user.id)).toBe(victim.user.email);
    expect((await reader.post('/account/email/cancel', { token: tokenOf(cancel) })).status).toBe(404);
  });

  it('a change that was made cannot be "cancelled" afterwards; the owner can still confirm one of their own', async () => {
    const owner = await createTestUser(api, 'free', VICTIM_PASSWORD);
    const { attackerEmail: newEmail, confirm } = await attackerAsksForChange(owner.user.email, VICTIM_PASSWORD);
    const cancel = box.link(await box.mail(owner.user.email, NOTICE_SUBJECT), '/account/email/cancel');
    later(1000);
    const confirmed = await follow(client(), confirm, '/account/email/confirm');
    expect(confirmed.status).toBe(200);
    expect(await emailOf(owner.user.id)).toBe(newEmail);
    expect((await follow(client(), cancel, '/account/email/cancel')).status).toBe(404);
    expect(await emailOf(owner.user.id)).toBe(newEmail);
  });
});

describe('reset links', () => {
  it('an older link no longer works once a newer one was used', async () => {
    const owner = await createTestUser(api, 'free', VICTIM_PASSWORD);
    const older = await resetByMail(owner.user.email, 1);
    later(1000);
    const newer = await resetByMail(owner.user.email, 2);
    expect(newer.link).not.toBe(older.link);
    const used = await follow(newer.victim, newer.link, '/password/reset', { password: RESET_PASSWORD });
    expect(used.status).toBe(303);

    later(1000);
    expect((await older.victim.get(older.link)).status).toBe(404);
    const refused = await older.victim.post('/password/reset', {
      token: tokenOf(older.link),
      password: 'someone else entirely 42',
    });
    expect(refused.status).toBe(404);
    expect((await client().signIn(owner.user.email, RESET_PASSWORD)).status).toBe(303);
  });
});

describe('an account pre-hijacked at sign-up', () => {
  it('verifying sets the verifier’s password and ends the other sessions: the attacker keeps neither', async () => {
    const victimEmail = `${uniqueName('victim')}@example.com`;
    const attacker = client();
    await attacker.get('/signup');
    const signedUp = await attacker.post('/signup', {
      name: 'Victim',
      email: victimEmail,
      password: ATTACKER_PASSWORD,
    });
    expect(signedUp.status).toBe(303);
    // Unverified accounts may sign in: the attacker holds a session.
    expect((await attacker.signIn(victimEmail, ATTACKER_PASSWORD)).status).toBe(303);
    expect((await attacker.get('/settings')).status).toBe(200);

    const verifyLink = box.link(
      await box.mail(victimEmail, 'Confirm your e-mail address for WebPerf'),
      '/email/verify',
    );
    const victim = client();
    const page = await victim.get(verifyLink);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<input id="password" name="password" type="password" autocomplete="new-password"/);
    expect(page.text).toContain('Choose the password of your account');
    // Without a password (or with a weak one) nothing happens and the link stays usable.
    expect((await victim.post('/email/verify', { token: tokenOf(verifyLink) })).status).toBe(422);
    const row = () =>
      api.db
        .knex('users')
        .whereRaw('lower(email) = lower(?)', [victimEmail])
        .first('id', 'email_verified_at') as Promise<{ id: number; email_verified_at: Date | null }>;
    expect((await row()).email_verified_at).toBeNull();

    later(1000);
    const verified = await victim.post('/email/verify', { token: tokenOf(verifyLink), password: RESET_PASSWORD });
    expect([verified.status, verified.headers.location]).toEqual([303, '/']);
    expect((await victim.get('/settings')).status).toBe(200);
    expect((await row()).email_verified_at).toBeInstanceOf(Date);

    const dead = await attacker.get('/settings');
    expect([dead.status, dead.headers.location]).toEqual([302, '/login?next=%2Fsettings']);
    expect((await client().signIn(victimEmail, ATTACKER_PASSWORD)).status).toBe(422);
    expect((await client().signIn(victimEmail, RESET_PASSWORD)).status).toBe(303);
    const sessions = await createStorage(api.db.knex).sessions.listLive((await row()).id, api.clock.read(), '');
    expect(sessions).toHaveLength(2); // the verifier's, and the sign-in just above
  });
});
