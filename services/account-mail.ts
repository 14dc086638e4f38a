import { createHash, randomBytes } from 'node:crypto';
import { ENDED_BY_NEW_PASSWORD } from '../core/account/links.ts';
import { composeAccountMail, type AccountMailKind } from '../core/account/mail.ts';
import type { Locale } from '../core/i18n/locale.ts';
import type { User } from '../core/user.ts';
import type { AccountLinkPurpose, AccountLinkStore } from '../db/store/account-links.ts';
import type { SessionStore } from '../db/store/sessions.ts';
import type { ThrottleStore } from '../db/store/throttles.ts';
import type { UserStore } from '../db/store/users.ts';
import type { Logger } from '../infra/logger.ts';
import { reserveAccountMail, type AccountMailSlot } from './account-mail-throttle.ts';
import { AccountError, createUser, findUserByEmail } from './accounts.ts';
import { checkCurrentPassword } from './current-password.ts';
import type { Mailer } from './mailer.ts';
import { checkNewPassword } from './password-rule.ts';
import { hashPassword } from './passwords.ts';
import type { SignInClient } from './sign-in-throttle.ts';

/**
 * The account's mail: password reset, e-mail verification, the "someone tried to sign up with your address"
 * notice and the e-mail change (with its "cancel this change" link to the old address). Every link carries a
 * random token of 32 bytes, of which only the SHA-256 is stored; each works once and only until it expires.
 */
export const LINK_HOURS: Record<AccountLinkPurpose, number> = {
  password_reset: 1,
  email_verify: 7 * 24,
  email_change: 24,
  email_change_cancel: 24,
};

export const LINK_PATHS: Record<AccountLinkPurpose, string> = {
  password_reset: '/password/reset',
  email_verify: '/email/verify',
  email_change: '/account/email/confirm',
  email_change_cancel: '/account/email/cancel',
};

export interface AccountMailDeps {
  users: UserStore;
  sessions: SessionStore;
  accountLinks: AccountLinkStore;
  throttles: ThrottleStore;
  /** Null when no SMTP server is configured (development without one): the mail is logged as not sent. */
  mailer: Mailer | null;
  baseUrl: string;
  clock: () => Date;
  log: Pick<Logger, 'info' | 'warn'>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** A link's token: 32 random bytes, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const linkUrl = (deps: AccountMailDeps, purpose: AccountLinkPurpose, token: string) =>
  `${deps.baseUrl.replace(/\/$/, '')}${LINK_PATHS[purpose]}?token=${encodeURIComponent(token)}`;

/** The reset page's address without a token: where the sign-up and change notices send the reader. */
const forgotUrl = (deps: AccountMailDeps) => `${deps.baseUrl.replace(/\/$/, '')}/password/forgot`;

async function newLink(
  deps: AccountMailDeps,
  userId: number,
  purpose: AccountLinkPurpose,
  newEmail: string | null = null,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock();
  // Links past their time can never work again; each new one clears them away.
  await deps.accountLinks.deleteExpiredBefore(now);
  await deps.accountLinks.create({
    userId,
    purpose,
    newEmail,
    tokenHash: sha256(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + LINK_HOURS[purpose] * 3_600_000),
  });
  return linkUrl(deps, purpose, token);
}

/** Whose mail it is: the account's name, its language, and whether its address is verified. */
interface Recipient {
  user: User;
  locale: Locale;
  emailVerified: boolean;
}

/**
 * Hands the mail to the SMTP server without waiting: the page's answer takes the same time whether a mail went
 * out or not (an unknown address sends none), and a slow SMTP server does not hold the page. A failure is logged.
 * The account's name is in the greeting only once its address is verified: until then it is whatever was typed
 * at sign-up, by anyone, and the mail must not carry it to an address nobody has shown to be theirs.
 */
function send(
  deps: AccountMailDeps,
  kind: AccountMailKind,
  to: string,
  recipient: Recipient,
  facts: { link: string; validHours?: number; newEmail?: string; cancelLink?: string },
): void {
  const name = recipient.emailVerified ? recipient.user.name : null;
  const mail = composeAccountMail(kind, to, recipient.locale, { ...facts, name });
  if (!deps.mailer) {
    deps.log.warn({ kind }, 'account e-mail not sent: no SMTP server configured');
    return;
  }
  deps.mailer.send(mail).then(
    () => deps.log.info({ kind }, 'account e-mail sent'),
    (error: unknown) => deps.log.warn({ kind, err: error }, 'account e-mail not sent'),
  );
}

const validToken = (token: string): boolean => TOKEN.test(token);

export type RequestOutcome = { kind: 'accepted' } | { kind: 'throttled'; until: Date };

/**
 * "Forgot your password?": counted against the address and the client, and nothing else. The answer depends on
 * that count alone; the rest (looking the address up, the link, the mail) is `mailResetLink`, which the caller
 * runs once the answer is sent, so a known and an unknown address are answered after the same work.
 */
export async function requestPasswordReset(
  deps: AccountMailDeps,
  email: string,
  client: string,
): Promise<RequestOutcome> {
  const slot = await reserveAccountMail(deps.accountLinks, { email, client }, deps.clock());
  return slot.kind === 'throttled' ? slot : { kind: 'accepted' };
}

/** The work behind an accepted reset request: a link mailed when an account has the address. Failures are logged. */
export async function mailResetLink(deps: AccountMailDeps, email: string): Promise<void> {
  try {
    const profile = await profileByEmail(deps, email);
    if (!profile) return;
    const link = await newLink(deps, profile.user.id, 'password_reset');
    send(deps, 'password_reset', profile.user.email, profile, { link, validHours: LINK_HOURS.password_reset });
  } catch (error) {
    deps.log.warn({ err: error }, 'password reset link not prepared');
  }
}

async function profileByEmail(deps: AccountMailDeps, email: string) {
  const user = await findUserByEmail(deps.users, email);
  return user ? deps.users.mailProfile(user.id) : undefined;
}

/** Whether a reset link is still good (the form is shown only then); it is not used up by looking. */
export async function resetLinkUser(deps: AccountMailDeps, token: string): Promise<User | undefined> {
  if (!validToken(token)) return undefined;
  const link = await deps.accountLinks.peek(sha256(token), 'password_reset', deps.clock());
  return link ? deps.users.findById(link.userId) : undefined;
}

export type ResetOutcome = { kind: 'reset'; user: User } | { kind: 'invalid_link' } | { kind: 'weak'; reason: string };

/**
 * Sets a new password through a reset link: the rule first (a refused password leaves the link usable), then
 * the link is used up, the password replaced and every web session of the user ended. API tokens and OAuth
 * grants are left alone: they are not the password.
 */
export async function resetPassword(
  deps: AccountMailDeps,
  token: string,
  password: string,
  locale: Locale,
): Promise<ResetOutcome> {
  const user = await resetLinkUser(deps, token);
  if (!user) return { kind: 'invalid_link' };
  const verdict = checkNewPassword(password, user, locale);
  if (!verdict.ok) return { kind: 'weak', reason: verdict.reason };
  const now = deps.clock();
  const hash = await hashPassword(password);
  const link = await deps.accountLinks.use(sha256(token), 'password_reset', now);
  if (!link) return { kind: 'invalid_link' };
  const ended = await setPasswordEverywhere(deps, link.userId, hash, now);
  deps.log.info({ userId: link.userId, ...ended }, 'password reset');
  return { kind: 'reset', user };
}

/**
 * A password set from a mailed link (a reset, a verification): the new password, every other reset link and
 * every pending e-mail change ended (whoever knew the old password may have asked for them), and every web
 * session of the account ended.
 */
async function setPasswordEverywhere(
  deps: AccountMailDeps,
  userId: number,
  hash: string,
  now: Date,
): Promise<{ sessionsEnded: number; linksEnded: number }> {
  await deps.users.setPasswordHash(userId, hash, now);
  const linksEnded = await deps.accountLinks.endForUser(userId, ENDED_BY_NEW_PASSWORD, now);
  const sessionsEnded = await deps.sessions.deleteForUser(userId);
  return { sessionsEnded, linksEnded };
}

export type SignUpOutcome = { kind: 'accepted' } | { kind: 'invalid'; field: string; message: string };

/**
 * Sign-up: a new address gets an unverified account and a verification link; an address that has an account
 * gets the "someone tried to sign up with your address" notice instead, and nothing changes. The caller answers
 * both the same way (the same page, no session), so the form tells nobody which addresses have accounts.
 */
export async function signUpByMail(
  deps: AccountMailDeps,
  input: { name: string; email: string; password: string; locale: Locale },
): Promise<SignUpOutcome> {
  const verdict = checkNewPassword(input.password, input, input.locale);
  if (!verdict.ok) return { kind: 'invalid', field: 'password', message: verdict.reason };
  const existing = await profileByEmail(deps, input.email);
  if (existing) {
    // The same work as a new account (one password hash), so the answer takes as long.
    await hashPassword(input.password);
    send(deps, 'signup_taken', existing.user.email, existing, { link: forgotUrl(deps) });
    return { kind: 'accepted' };
  }
  try {
    const user = await createUser(deps.users, {
      name: input.name,
      email: input.email,
      password: input.password,
      plan: 'free',
      locale: input.locale,
      emailVerified: false,
    });
    await sendVerification(deps, { user, locale: input.locale, emailVerified: false });
    return { kind: 'accepted' };
  } catch (error) {
    if (!(error instanceof AccountError)) throw error;
    // Taken between the look-up and the insert: still the same answer.
    if (error.field === 'email' && (await findUserByEmail(deps.users, input.email))) return { kind: 'accepted' };
    return { kind: 'invalid', field: error.field, message: error.message };
  }
}

async function sendVerification(deps: AccountMailDeps, recipient: Recipient): Promise<void> {
  const link = await newLink(deps, recipient.user.id, 'email_verify');
  send(deps, 'verify', recipient.user.email, recipient, { link, validHours: LINK_HOURS.email_verify });
}

/** "Send the link again" for a signed-in, unverified account (throttled like reset requests). */
export async function resendVerification(
  deps: AccountMailDeps,
  userId: number,
  client: string,
): Promise<RequestOutcome | { kind: 'verified' }> {
  const profile = await deps.users.mailProfile(userId);
  if (!profile || profile.emailVerified) return { kind: 'verified' };
  const slot: AccountMailSlot = await reserveAccountMail(
    deps.accountLinks,
    { email: profile.user.email, client },
    deps.clock(),
  );
  if (slot.kind === 'throttled') return slot;
  await sendVerification(deps, profile);
  return { kind: 'accepted' };
}

export type VerifyOutcome =
  { kind: 'verified'; user: User } | { kind: 'invalid_link' } | { kind: 'weak'; reason: string };

/**
 * Follows a verification link with the password the verifier chooses: the address is verified, the password
 * replaced and every session of the account ended (the caller then signs the verifier in). Whoever signed up
 * with someone else's address is left with neither a session nor a password that works. A refused password
 * leaves the link usable.
 */
export async function verifyEmail(
  deps: AccountMailDeps,
  token: string,
  password: string,
  locale: Locale,
): Promise<VerifyOutcome> {
  if (!validToken(token)) return { kind: 'invalid_link' };
  const found = await deps.accountLinks.peek(sha256(token), 'email_verify', deps.clock());
  const user = found && (await deps.users.findById(found.userId));
  if (!user) return { kind: 'invalid_link' };
  const verdict = checkNewPassword(password, user, locale);
  if (!verdict.ok) return { kind: 'weak', reason: verdict.reason };
  const hash = await hashPassword(password);
  const now = deps.clock();
  const link = await deps.accountLinks.use(sha256(token), 'email_verify', now);
  if (!link) return { kind: 'invalid_link' };
  await deps.users.markEmailVerified(link.userId, now);
  const ended = await setPasswordEverywhere(deps, link.userId, hash, now);
  deps.log.info({ userId: link.userId, ...ended }, 'e-mail address verified');
  const verified = await deps.users.findById(link.userId);
  return verified ? { kind: 'verified', user: verified } : { kind: 'invalid_link' };
}

export type EmailChangeOutcome =
  | { kind: 'accepted' }
  | { kind: 'invalid'; field: 'email' | 'password'; message: string }
  /** Too many mails asked for (`mail`), or too many wrong passwords (`password`). */
  | { kind: 'throttled'; until: Date; by: 'mail' | 'password' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Asks to move the account to a new address: with the current password (services/current-password.ts), a
 * confirmation link goes to the new address (when no other account has it) and a notice to the old one, with
 * a link that cancels the change and the way to reset the password. The answer is the same whether the new
 * address is taken or not; nothing changes until the link is followed.
 */
export async function requestEmailChange(
  deps: AccountMailDeps,
  user: User,
  input: { newEmail: string; password: string; client: SignInClient },
  words: { invalidEmail: string; sameEmail: string; wrongPassword: string },
): Promise<EmailChangeOutcome> {
  const newEmail = input.newEmail.trim();
  if (!EMAIL.test(newEmail)) return { kind: 'invalid', field: 'email', message: words.invalidEmail };
  if (newEmail.toLowerCase() === user.email.toLowerCase())
    return { kind: 'invalid', field: 'email', message: words.sameEmail };
  const checked = await checkCurrentPassword(deps, user, input.password, input.client, deps.clock());
  if (checked.kind === 'throttled') return { ...checked, by: 'password' };
  if (checked.kind === 'wrong') return { kind: 'invalid', field: 'password', message: words.wrongPassword };
  const who = { email: user.email, client: input.client.ip };
  const slot = await reserveAccountMail(deps.accountLinks, who, deps.clock());
  if (slot.kind === 'throttled') return { ...slot, by: 'mail' };
  const profile = (await deps.users.mailProfile(user.id))!;
  if (!(await findUserByEmail(deps.users, newEmail))) {
    const link = await newLink(deps, user.id, 'email_change', newEmail);
    send(deps, 'email_change_confirm', newEmail, profile, { link, validHours: LINK_HOURS.email_change });
  }
  const cancelLink = await newLink(deps, user.id, 'email_change_cancel', newEmail);
  send(deps, 'email_change_notice', user.email, profile, { link: forgotUrl(deps), cancelLink, newEmail });
  return { kind: 'accepted' };
}

/**
 * Follows an e-mail change link: the user at the new, verified address, or undefined (used, expired, cancelled,
 * made before the password was last set, or the address taken since). The "cancel this change" links end.
 */
export async function confirmEmailChange(deps: AccountMailDeps, token: string): Promise<User | undefined> {
  if (!validToken(token)) return undefined;
  const now = deps.clock();
  const link = await deps.accountLinks.use(sha256(token), 'email_change', now);
  if (!link?.newEmail) return undefined;
  // Asked for with a password that has been replaced since: not the owner's wish any more.
  const passwordSetAt = await deps.users.passwordChangedAt(link.userId);
  if (passwordSetAt && link.createdAt.getTime() <= passwordSetAt.getTime()) return undefined;
  const changed = await deps.users.changeEmail(link.userId, link.newEmail, now);
  if (!changed || changed === 'email_taken') return undefined;
  await deps.accountLinks.endForUser(link.userId, ['email_change_cancel'], now);
  deps.log.info({ userId: link.userId }, 'e-mail address changed');
  return changed;
}

/**
 * Follows "cancel this change" from the notice to the old address (no session needed: the link is the proof):
 * every pending e-mail change of the account ends. False when the link does not work (used, expired, or the
 * change already made).
 */
export async function cancelEmailChange(deps: AccountMailDeps, token: string): Promise<boolean> {
  if (!validToken(token)) return false;
  const now = deps.clock();
  const link = await deps.accountLinks.use(sha256(token), 'email_change_cancel', now);
  if (!link) return false;
  const ended = await deps.accountLinks.endForUser(link.userId, ['email_change', 'email_change_cancel'], now);
  deps.log.info({ userId: link.userId, linksEnded: ended }, 'e-mail change cancelled');
  return true;
}
