import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { resourceUrl } from '../../core/oauth/resources.ts';
import { planFor } from '../../core/plans.ts';
import { notFound, setRetryAfter } from '../../http/errors.ts';
import { authenticate } from '../../services/accounts.ts';
import { signUpByMail } from '../../services/account-mail.ts';
import { listApps, revokeApp } from '../../services/oauth-apps.ts';
import { throttledSignIn } from '../../services/sign-in-throttle.ts';
import { reserveSignUp } from '../../services/sign-up-throttle.ts';
import { deleteToken, listTokens, mintToken } from '../../services/tokens.ts';
import { chromeFor } from '../chrome.ts';
import { accountMailDeps, type AccountMailPageDeps } from './mail-routes.ts';
import { sendPage } from '../error-page.ts';
import { localPath, pageLocale } from '../locale.ts';
import { csrfToken, endSession, readForm, startSession, webUser } from '../session.ts';
import { accountText, type AccountText } from './labels.ts';
import { issueDeviceCookie, trustedDevice } from './device-cookie.ts';
import { apiPage, loginPage, signupPage, type ApiPageInput, type FormErrors } from './pages.ts';

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
  router.get('/account/api', on(showApiPage));
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

function requireUser(ctx: Context) {
  const user = webUser(ctx);
  if (!user) ctx.redirect('/login');
  return user;
}

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

async function renderApiPage(
  deps: AccountPageDeps,
  ctx: Ctx,
  extra: Partial<ApiPageInput> = {},
  status = 200,
): Promise<void> {
  const user = webUser(ctx)!;
  const [tokens, apps] = await Promise.all([
    listTokens(deps.storage.tokens, user.id),
    listApps(deps.storage.oauth, user.id),
  ]);
  sendPage(
    ctx,
    apiPage({
      chrome: chromeFor(deps, ctx, 'settings'),
      plan: planFor(user.plan),
      csrf: csrfToken(ctx, deps.config),
      tokens,
      apps,
      mcpUrl: resourceUrl(deps.config.baseUrl, 'mcp'),
      ...extra,
    }),
    status,
  );
}

async function showApiPage(deps: AccountPageDeps, ctx: Ctx): Promise<void> {
  if (requireUser(ctx)) await renderApiPage(deps, ctx);
}

async function createToken(deps: AccountPageDeps, ctx: Ctx): Promise<void> {
  const user = requireUser(ctx);
  if (!user) return;
  const form = await readForm(ctx, deps.config);
  const values = { name: (form.get('name') ?? '').trim(), expires: (form.get('expires') ?? '').trim() };
  const errors: FormErrors = {};
  const text = accountText(pageLocale(ctx, deps.config));
  const invalidName = nameError(values.name, text);
  if (invalidName) errors.name = invalidName;
  let expiresAt: Date | null = null;
  if (values.expires) {
    expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? new Date(`${values.expires}T00:00:00Z`) : null;
    if (!expiresAt || Number.isNaN(expiresAt.getTime())) errors.expires = text.expiryNotDate;
    else if (expiresAt.getTime() <= deps.clock().getTime()) errors.expires = text.expiryPast;
  }
  if (Object.keys(errors).length) return renderApiPage(deps, ctx, { values, errors }, 422);
  const { token } = await mintToken(deps.storage.tokens, user.id, values.name, expiresAt);
  // Rendered directly, not redirected: the value exists only in this response.
  await renderApiPage(deps, ctx, { newToken: { name: values.name, value: token } }, 201);
}

async function removeToken(deps: AccountPageDeps, ctx: Ctx): Promise<void> {
  const user = requireUser(ctx);
  if (!user) return;
  await readForm(ctx, deps.config);
  const id = /^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
  if (!Number.isSafeInteger(id) || !(await deleteToken(deps.storage.tokens, user.id, id))) throw notFound();
  ctx.status = 303;
  ctx.redirect('/account/api');
}

async function revokeAuthorisedApp(deps: AccountPageDeps, ctx: Ctx): Promise<void> {
  const user = requireUser(ctx);
  if (!user) return;
  await readForm(ctx, deps.config);
  const grantId = ctx.params.grantId ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(grantId) || !(await revokeApp(deps.storage.oauth, user.id, grantId)))
    throw notFound();
  ctx.status = 303;
  ctx.redirect('/account/api');
}
