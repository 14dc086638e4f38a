import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { setRetryAfter } from '../../http/errors.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { Logger } from '../../infra/logger.ts';
import {
  cancelEmailChange,
  confirmEmailChange,
  mailResetLink,
  requestEmailChange,
  requestPasswordReset,
  resendVerification,
  resetLinkUser,
  resetPassword,
  verifyEmail,
  type AccountMailDeps,
} from '../../services/account-mail.ts';
import type { Mailer } from '../../services/mailer.ts';
import { chromeFor, type PageDeps } from '../chrome.ts';
import { sendPage } from '../error-page.ts';
import { localPath, pageLocale } from '../locale.ts';
import { csrfToken, readForm, startSession, webUser } from '../session.ts';
import { issueDeviceCookie, trustedDevice } from './device-cookie.ts';
import { accountText } from './labels.ts';
import { accountMailText, type AccountMailText } from './mail-labels.ts';
import { confirmLinkPage, emailChangePage, forgotPage, messagePage, resetPage, verifyPage } from './mail-pages.ts';

export interface AccountMailPageDeps extends PageDeps {
  /** Null when no SMTP server is configured: the pages work, and the mail is logged as not sent. */
  mailer: Mailer | null;
  log: Pick<Logger, 'info' | 'warn'>;
}

type Ctx = RouterContext;

/**
 * Password reset, the sign-up's "check your inbox" page, e-mail verification (link and banner) and the e-mail
 * change (services/account-mail.ts). Sign-up itself stays in routes.ts.
 */
export function mountAccountMailPages(router: Router, deps: AccountMailPageDeps): void {
  const on = (handler: (deps: AccountMailPageDeps, ctx: Ctx) => Promise<void> | void) => (ctx: Ctx) =>
    handler(deps, ctx);
  router.get('/password/forgot', on(showForgot));
  router.post('/password/forgot', on(askForReset));
  router.get('/password/forgot/sent', on(showForgotSent));
  router.get('/password/reset', on(showReset));
  router.post('/password/reset', on(setNewPassword));
  router.get('/password/reset/done', on(showResetDone));
  router.get('/signup/check-inbox', on(showCheckInbox));
  router.get('/email/verify', on(showVerifyLink));
  router.post('/email/verify', on(followVerifyLink));
  router.post('/account/verify/resend', on(sendLinkAgain));
  router.get('/account/email', on(showEmailChange));
  router.post('/account/email', on(askForEmailChange));
  router.get('/account/email/sent', on(showEmailSent));
  router.get('/account/email/confirm', on(showEmailChangeLink));
  router.post('/account/email/confirm', on(followEmailChangeLink));
  router.get('/account/email/cancel', on(showEmailCancelLink));
  router.post('/account/email/cancel', on(followEmailCancelLink));
}

export const accountMailDeps = (deps: AccountMailPageDeps): AccountMailDeps => ({
  users: deps.storage.users,
  sessions: deps.storage.sessions,
  accountLinks: deps.storage.accountLinks,
  throttles: deps.storage.throttles,
  mailer: deps.mailer,
  baseUrl: deps.config.baseUrl,
  clock: deps.clock,
  log: deps.log,
});

const words = (deps: PageDeps, ctx: Ctx): AccountMailText => accountMailText(pageLocale(ctx, deps.config));
const tokenOf = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 128) : '');

function throttledMessage(ctx: Context, locale: Locale, until: Date, now: Date): string {
  const seconds = setRetryAfter(ctx, { until, now });
  return accountText(locale).tryAgainIn(Math.ceil(seconds / 60));
}

function showForgot(deps: AccountMailPageDeps, ctx: Ctx): void {
  sendPage(ctx, forgotPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config)));
}

async function askForReset(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const email = (form.get('email') ?? '').trim();
  const text = words(deps, ctx);
  const chrome = chromeFor(deps, ctx);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    const errors = { email: text.emailInvalid };
    return sendPage(ctx, forgotPage(chrome, csrfToken(ctx, deps.config), email, errors), 422);
  }
  const now = deps.clock();
  const mail = accountMailDeps(deps);
  const outcome = await requestPasswordReset(mail, email, ctx.ip);
  if (outcome.kind === 'throttled') {
    const errors = {
      form: `${text.forgotThrottled} ${throttledMessage(ctx, chrome.locale, outcome.until, now)}`,
    };
    return sendPage(ctx, forgotPage(chrome, csrfToken(ctx, deps.config), email, errors), 429);
  }
  // The same answer whether an account has the address or not, sent before anything depends on which: the
  // look-up, the link and the mail are prepared once the answer has gone.
  ctx.res.once('close', () => void mailResetLink(mail, email));
  ctx.status = 303;
  ctx.redirect('/password/forgot/sent');
}

function showForgotSent(deps: AccountMailPageDeps, ctx: Ctx): void {
  const text = words(deps, ctx);
  sendPage(ctx, messagePage(chromeFor(deps, ctx), text.forgotSentTitle, text.forgotSent));
}

function invalidLink(deps: AccountMailPageDeps, ctx: Ctx, message: string, again = '/password/forgot'): void {
  const text = words(deps, ctx);
  const links = again ? [{ href: again, label: text.askAgain, id: 'ask-again' }] : [];
  sendPage(ctx, messagePage(chromeFor(deps, ctx), text.linkTitle, message, links), 404);
}

async function showReset(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const token = tokenOf(ctx.query.token);
  if (!(await resetLinkUser(accountMailDeps(deps), token)))
    return invalidLink(deps, ctx, words(deps, ctx).resetInvalid);
  sendPage(ctx, resetPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), token));
}

async function setNewPassword(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const token = form.get('token') ?? '';
  const locale = pageLocale(ctx, deps.config);
  const outcome = await resetPassword(accountMailDeps(deps), token, form.get('password') ?? '', locale);
  if (outcome.kind === 'invalid_link') return invalidLink(deps, ctx, words(deps, ctx).resetInvalid);
  if (outcome.kind === 'weak') {
    const page = resetPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), token, { password: outcome.reason });
    return sendPage(ctx, page, 422);
  }
  ctx.status = 303;
  ctx.redirect('/password/reset/done');
}

function showResetDone(deps: AccountMailPageDeps, ctx: Ctx): void {
  const text = words(deps, ctx);
  sendPage(
    ctx,
    messagePage(chromeFor(deps, ctx), text.doneTitle, text.resetDone, [
      { href: '/login', label: text.signInLink, id: 'to-sign-in' },
    ]),
  );
}

function showCheckInbox(deps: AccountMailPageDeps, ctx: Ctx): void {
  const text = words(deps, ctx);
  const next = localPath(ctx.query.next, '/');
  const signIn = `/login${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`;
  sendPage(
    ctx,
    messagePage(chromeFor(deps, ctx), text.checkInboxTitle, `${text.checkInbox} ${text.checkInboxLater}`, [
      { href: signIn, label: text.signInLink, id: 'to-sign-in' },
    ]),
  );
}

/**
 * The verification link: the verifier sets the account's password, which verifies the address, ends every
 * other session and signs them in (services/account-mail.ts `verifyEmail`).
 */
function showVerifyLink(deps: AccountMailPageDeps, ctx: Ctx): void {
  sendPage(ctx, verifyPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), tokenOf(ctx.query.token)));
}

async function followVerifyLink(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const token = tokenOf(form.get('token'));
  const locale = pageLocale(ctx, deps.config);
  const outcome = await verifyEmail(accountMailDeps(deps), token, form.get('password') ?? '', locale);
  if (outcome.kind === 'invalid_link') return invalidLink(deps, ctx, words(deps, ctx).verifyInvalid, '/login');
  if (outcome.kind === 'weak') {
    const page = verifyPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), token, { password: outcome.reason });
    return sendPage(ctx, page, 422);
  }
  await startSession(ctx, deps, outcome.user.id);
  issueDeviceCookie(ctx, deps.config, outcome.user.email);
  ctx.status = 303;
  ctx.redirect('/');
}

async function sendLinkAgain(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = webUser(ctx);
  if (!user) return ctx.redirect('/login');
  const next = localPath(form.get('next'), '/');
  const now = deps.clock();
  const outcome = await resendVerification(accountMailDeps(deps), user.id, ctx.ip);
  const text = words(deps, ctx);
  const chrome = chromeFor(deps, ctx);
  if (outcome.kind === 'throttled') {
    const message = `${text.resendThrottled} ${throttledMessage(ctx, chrome.locale, outcome.until, now)}`;
    return sendPage(
      ctx,
      messagePage(chrome, text.sendAgain, message, [{ href: next, label: text.toDashboard, id: 'back' }]),
      429,
    );
  }
  ctx.status = 303;
  ctx.redirect(next);
}

function emailPage(deps: AccountMailPageDeps, ctx: Ctx, email: string, newEmail = '', errors = {}) {
  return emailChangePage(chromeFor(deps, ctx, 'settings'), csrfToken(ctx, deps.config), email, newEmail, errors);
}

function showEmailChange(deps: AccountMailPageDeps, ctx: Ctx): void {
  const user = webUser(ctx);
  if (!user) return ctx.redirect(`/login?next=${encodeURIComponent('/account/email')}`);
  sendPage(ctx, emailPage(deps, ctx, user.email));
}

async function askForEmailChange(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = webUser(ctx);
  if (!user) return ctx.redirect('/login');
  const text = words(deps, ctx);
  const newEmail = (form.get('email') ?? '').trim();
  const now = deps.clock();
  const client = { ip: ctx.ip, device: trustedDevice(ctx, deps.config, user.email) };
  const outcome = await requestEmailChange(
    accountMailDeps(deps),
    user,
    { newEmail, password: form.get('password') ?? '', client },
    { invalidEmail: text.emailInvalid, sameEmail: text.emailSame, wrongPassword: text.wrongPassword },
  );
  if (outcome.kind === 'invalid')
    return sendPage(ctx, emailPage(deps, ctx, user.email, newEmail, { [outcome.field]: outcome.message }), 422);
  if (outcome.kind === 'throttled') {
    const locale = pageLocale(ctx, deps.config);
    const wait = throttledMessage(ctx, locale, outcome.until, now);
    const errors =
      outcome.by === 'password'
        ? { password: `${text.passwordThrottled} ${wait}` }
        : { form: `${text.emailThrottled} ${wait}` };
    return sendPage(ctx, emailPage(deps, ctx, user.email, newEmail, errors), 429);
  }
  ctx.status = 303;
  ctx.redirect('/account/email/sent');
}

function showEmailSent(deps: AccountMailPageDeps, ctx: Ctx): void {
  if (!webUser(ctx)) return ctx.redirect('/login');
  const text = words(deps, ctx);
  sendPage(ctx, messagePage(chromeFor(deps, ctx, 'settings'), text.emailSentTitle, text.emailSent));
}

function showEmailChangeLink(deps: AccountMailPageDeps, ctx: Ctx): void {
  const text = words(deps, ctx);
  sendPage(
    ctx,
    confirmLinkPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), {
      action: '/account/email/confirm',
      token: tokenOf(ctx.query.token),
      title: text.confirmChangeTitle,
      intro: text.confirmChange,
      button: text.confirmChangeButton,
      id: 'confirm-address',
    }),
  );
}

async function followEmailChangeLink(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const text = words(deps, ctx);
  const user = await confirmEmailChange(accountMailDeps(deps), tokenOf(form.get('token')));
  if (!user) return invalidLink(deps, ctx, text.emailChangeInvalid, '');
  const signedIn = webUser(ctx);
  // A signed-in page of this user shows the new address from now on.
  if (signedIn?.id === user.id) {
    ctx.state.webUser = { ...signedIn, email: user.email };
    ctx.state.webEmailVerified = true;
  }
  const link = signedIn
    ? { href: '/', label: text.toDashboard, id: 'to-dashboard' }
    : { href: '/login', label: text.signInLink, id: 'to-sign-in' };
  sendPage(ctx, messagePage(chromeFor(deps, ctx), text.changedTitle, text.emailChanged(user.email), [link]));
}

function showEmailCancelLink(deps: AccountMailPageDeps, ctx: Ctx): void {
  const text = words(deps, ctx);
  sendPage(
    ctx,
    confirmLinkPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), {
      action: '/account/email/cancel',
      token: tokenOf(ctx.query.token),
      title: text.cancelChangeTitle,
      intro: text.cancelChange,
      button: text.cancelChangeButton,
      id: 'cancel-change',
    }),
  );
}

/** "Cancel this change" from the notice to the old address: works without a session (the link is the proof). */
async function followEmailCancelLink(deps: AccountMailPageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const text = words(deps, ctx);
  if (!(await cancelEmailChange(accountMailDeps(deps), tokenOf(form.get('token')))))
    return invalidLink(deps, ctx, text.cancelInvalid, '');
  sendPage(
    ctx,
    messagePage(chromeFor(deps, ctx), text.cancelledTitle, text.changeCancelled, [
      { href: '/password/forgot', label: text.resetNow, id: 'reset-password' },
    ]),
  );
}
