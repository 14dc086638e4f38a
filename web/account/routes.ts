import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { setRetryAfter } from '../../http/errors.ts';
import { authenticate } from '../../services/accounts.ts';
import { signUpByMail } from '../../services/account-mail.ts';
import { throttledSignIn } from '../../services/sign-in-throttle.ts';
import { reserveSignUp } from '../../services/sign-up-throttle.ts';
import { chromeFor } from '../chrome.ts';
import { accountMailDeps, type AccountMailPageDeps } from './mail-routes.ts';
import { sendPage } from '../error-page.ts';
import { localPath, pageLocale } from '../locale.ts';
import { csrfToken, endSession, readForm, startSession, webUser } from '../session.ts';
import { accountText, type AccountText } from './labels.ts';
import { issueDeviceCookie, trustedDevice } from './device-cookie.ts';
import { loginPage, signupPage, type FormErrors } from './pages.ts';
import { createToken, removeToken, revokeAuthorisedApp } from '../settings/routes.ts';

export type AccountPageDeps = AccountMailPageDeps;

type Ctx = RouterContext;

/** The visitor's account: sign-in, sign-up, sign-out, and the API page (tokens, authorised apps). */
export function mountAccountPages(router: Router, deps: AccountPageDeps): void {
  const on = (handler: (deps: AccountPageDeps, ctx: Ctx) => Promise<void> | void) => (ctx: Ctx) => handler(deps, ctx);
  router.get('/login', on(showSignIn));
  router.post('/login', on(signIn));
  router.get('/signup', on(showSignUp));
  router.post('/signup', on(signUp));
  router.post('/logout', on(signOut));
  // The API page's addresses from before the settings: the page leads to its section there.
  router.get('/account/api', (ctx) => ctx.redirect('/settings#api-tokens'));
  router.post('/account/api/tokens', on(createToken));
  router.post('/account/api/tokens/:id/delete', on(removeToken));
  router.post('/account/api/apps/:grantId/revoke', on(revokeAuthorisedApp));
}

const MAX_NAME = 100;

/** Sets Retry-After for a throttled form and says how long in words. */
function retryAfter(ctx: Context, text: AccountText, until: Date, now: Date): string {
  const seconds = setRetryAfter(ctx, { until, now });
  return text.tryAgainIn(Math.ceil(seconds / 60));
}

/** Where sign-in (or sign-up) leads: a path on this site that was asked for, else the dashboard (no open redirects). */
const afterSignIn = (value: unknown): string => localPath(value, '/');

const nameError = (name: string, text: AccountText): string | undefined =>
  !name ? text.nameRequired : name.length > MAX_NAME ? text.nameTooLong(MAX_NAME) : undefined;

function showSignIn(deps: AccountPageDeps, ctx: Ctx): void {
  const { config } = deps;
  const next = afterSignIn(ctx.query.next);
  if (webUser(ctx)) return ctx.redirect(next);
  sendPage(ctx, loginPage(chromeFor(deps, ctx), csrfToken(ctx, config), '', {}, next));
}

async function signIn(deps: AccountPageDeps, ctx: Ctx): Promise<void> {
  const { storage, config } = deps;
  const form = await readForm(ctx, config);
  const email = (form.get('email') ?? '').trim();
  const next = afterSignIn(form.get('next'));
  const now = deps.clock();
  const client = { ip: ctx.ip, device: email ? trustedDevice(ctx, config, email) : null };
  const outcome = email
    ? await throttledSignIn(storage.throttles, email, client, now, () =>
        authenticate(storage.users, email, form.get('password') ?? ''),
      )
    : ({ kind: 'wrong_credentials' } as const);
  const text = accountText(pageLocale(ctx, deps.config));
  if (outcome.kind === 'throttled') {
    return sendPage(
      ctx,
      loginPage(
        chromeFor(deps, ctx),
        csrfToken(ctx, config),
        email,
        { form: `${text.signInThrottled} ${retryAfter(ctx, text, outcome.until, now)}` },
        next,
      ),
      429,
    );
  }
  if (outcome.kind === 'wrong_credentials')
    return sendPage(
      ctx,
      loginPage(chromeFor(deps, ctx), csrfToken(ctx, config), email, { form: text.wrongCredentials }, next),
      422,
    );
  await startSession(ctx, deps, outcome.user.id);
  issueDeviceCookie(ctx, config, outcome.user.email);
  ctx.status = 303;
  ctx.redirect(next);
}

function showSignUp(deps: AccountPageDeps, ctx: Ctx): void {
  const next = afterSignIn(ctx.query.next);
  if (webUser(ctx)) return ctx.redirect(next);
  sendPage(ctx, signupPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), {}, {}, next));
}

async function signUp(deps: AccountPageDeps, ctx: Ctx): Promise<void> {
  const { storage, config } = deps;
  const form = await readForm(ctx, config);
  const values = { name: (form.get('name') ?? '').trim(), email: (form.get('email') ?? '').trim() };
  const next = afterSignIn(form.get('next'));
  const errors: FormErrors = {};
  const text = accountText(pageLocale(ctx, deps.config));
  const invalidName = nameError(values.name, text);
  if (invalidName) errors.name = invalidName;
  else {
    const now = deps.clock();
    const slot = await reserveSignUp(storage.throttles, ctx.ip, now);
    if (slot.kind === 'throttled') {
      return sendPage(
        ctx,
        signupPage(chromeFor(deps, ctx), csrfToken(ctx, config), values, {
          form: `${text.signUpThrottled} ${retryAfter(ctx, text, slot.until, now)}`,
        }),
        429,
      );
    }
    // The language the visitor reads the site in is the language of their e-mails.
    const outcome = await signUpByMail(accountMailDeps(deps), {
      ...values,
      password: form.get('password') ?? '',
      locale: pageLocale(ctx, config),
    });
    if (outcome.kind === 'accepted') {
      // The same answer for a new and a taken address, and no session from it: the link or the password signs in.
      ctx.status = 303;
      return ctx.redirect(`/signup/check-inbox${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`);
    }
    await slot.release();
    errors[outcome.field] = outcome.message;
  }
  sendPage(ctx, signupPage(chromeFor(deps, ctx), csrfToken(ctx, config), values, errors, next), 422);
}

async function signOut(deps: AccountPageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  await endSession(ctx, deps);
  ctx.status = 303;
  ctx.redirect('/login');
}
