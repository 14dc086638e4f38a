import Router, { type RouterContext } from '@koa/router';
import type { Context } from 'koa';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import { negotiateLocale } from '../core/i18n/locale.ts';
import { planFor } from '../core/plans.ts';
import type { Scan } from '../core/scan/scan.ts';
import type { Storage } from '../db/store/index.ts';
import { notFound, retryAfterSeconds } from '../http/errors.ts';
import { AccountError, authenticate, createUser } from '../services/accounts.ts';
import { assetUrl, verifyAssetSignature, type AssetStore, type ImageAudience } from '../services/assets.ts';
import { throttledSignIn } from '../services/sign-in-throttle.ts';
import { reserveSignUp } from '../services/sign-up-throttle.ts';
import { deleteToken, listTokens, mintToken } from '../services/tokens.ts';
import { issueDeviceCookie, trustedDevice } from './device-cookie.ts';
import { setPageHeaders } from './error-page.ts';
import { apiPage, loginPage, signupPage, type ApiPageInput, type FormErrors } from './pages.ts';
import { reportPage } from './report.ts';
import { csrfToken, endSession, loadSession, readForm, sameOriginOnly, startSession, webUser } from './session.ts';

export interface WebDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  assets: AssetStore;
}

type WebContext = RouterContext;
type Handler = (deps: WebDeps, ctx: WebContext) => Promise<void> | void;

/** The server-rendered web area: sign-up, sign-in, sign-out, the API and apps page, reports, share pages, images. */
export function webRouter(deps: WebDeps): Router {
  const router = new Router();
  const on = (handler: Handler) => (ctx: WebContext) => handler(deps, ctx);
  router.use(sameOriginOnly(deps.config));
  router.use(loadSession(deps));

  router.get('/', home);
  router.get('/login', on(showSignIn));
  router.post('/login', on(signIn));
  router.get('/signup', on(showSignUp));
  router.post('/signup', on(signUp));
  router.post('/logout', on(signOut));
  router.get('/account/api', on(showApiPage));
  router.post('/account/api/tokens', on(createToken));
  router.post('/account/api/tokens/:id/delete', on(removeToken));
  router.get('/reports/:id', on(showReport));
  router.get('/share/:token', on(showSharedReport));
  router.get('/assets/:id/:name', on(serveImage));
  return router;
}

const MAX_NAME = 100;

function page(ctx: Context, body: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'html';
  setPageHeaders(ctx);
  ctx.body = body;
}

/** Sets Retry-After for a throttled form and says how long in words. */
function retryAfter(ctx: Context, until: Date, now: Date): string {
  const seconds = retryAfterSeconds(until, now);
  ctx.set('Retry-After', String(seconds));
  return `Try again in ${Math.ceil(seconds / 60)} minute(s).`;
}

/** Where sign-in leads: a path on this site that was asked for, else the API page (no open redirects). */
const afterSignIn = (value: unknown): string =>
  typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value) && value.length <= 300 ? value : '/account/api';

function requireUser(ctx: Context) {
  const user = webUser(ctx);
  if (!user) ctx.redirect('/login');
  return user;
}

const nameError = (name: string): string | undefined =>
  !name ? 'The name field is required.' : name.length > MAX_NAME ? `The name may not be greater than ${MAX_NAME} characters.` : undefined;

function home(ctx: WebContext): void {
  ctx.redirect(webUser(ctx) ? '/account/api' : '/login');
}

function showSignIn({ config }: WebDeps, ctx: WebContext): void {
  const next = afterSignIn(ctx.query.next);
  if (webUser(ctx)) return ctx.redirect(next);
  page(ctx, loginPage(csrfToken(ctx, config), '', {}, next));
}

async function signIn(deps: WebDeps, ctx: WebContext): Promise<void> {
  const { storage, config } = deps;
  const form = await readForm(ctx, config);
  const email = (form.get('email') ?? '').trim();
  const next = afterSignIn(form.get('next'));
  const now = deps.clock();
  const client = { ip: ctx.ip, device: email ? trustedDevice(ctx, config, email) : null };
  const outcome = email ? await throttledSignIn(storage.throttles, email, client, now, () => authenticate(storage.users, email, form.get('password') ?? '')) : ({ kind: 'wrong_credentials' } as const);
  if (outcome.kind === 'throttled') {
    return page(ctx, loginPage(csrfToken(ctx, config), email, { form: `Too many failed sign-in attempts. ${retryAfter(ctx, outcome.until, now)}` }, next), 429);
  }
  if (outcome.kind === 'wrong_credentials') return page(ctx, loginPage(csrfToken(ctx, config), email, { form: 'These credentials do not match our records.' }, next), 422);
  await startSession(ctx, deps, outcome.user.id);
  issueDeviceCookie(ctx, config, outcome.user.email);
  ctx.status = 303;
  ctx.redirect(next);
}

function showSignUp({ config }: WebDeps, ctx: WebContext): void {
  page(ctx, signupPage(csrfToken(ctx, config)));
}

async function signUp(deps: WebDeps, ctx: WebContext): Promise<void> {
  const { storage, config } = deps;
  const form = await readForm(ctx, config);
  const values = { name: (form.get('name') ?? '').trim(), email: (form.get('email') ?? '').trim() };
  const errors: FormErrors = {};
  const invalidName = nameError(values.name);
  if (invalidName) errors.name = invalidName;
  else {
    const now = deps.clock();
    const slot = await reserveSignUp(storage.throttles, ctx.ip, now);
    if (slot.kind === 'throttled') {
      return page(ctx, signupPage(csrfToken(ctx, config), values, { form: `Too many sign-ups from your network. ${retryAfter(ctx, slot.until, now)}` }), 429);
    }
    try {
      const user = await createUser(storage.users, { ...values, password: form.get('password') ?? '', plan: 'free' });
      await startSession(ctx, deps, user.id);
      issueDeviceCookie(ctx, config, user.email);
      ctx.status = 303;
      return ctx.redirect('/account/api');
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      await slot.release();
      errors[error.field] = error.message;
    }
  }
  page(ctx, signupPage(csrfToken(ctx, config), values, errors), 422);
}

async function signOut(deps: WebDeps, ctx: WebContext): Promise<void> {
  await readForm(ctx, deps.config);
  await endSession(ctx, deps);
  ctx.status = 303;
  ctx.redirect('/login');
}

async function renderApiPage(deps: WebDeps, ctx: WebContext, extra: Partial<ApiPageInput> = {}, status = 200): Promise<void> {
  const user = webUser(ctx)!;
  page(ctx, apiPage({ email: user.email, plan: planFor(user.plan), csrf: csrfToken(ctx, deps.config), tokens: await listTokens(deps.storage.tokens, user.id), ...extra }), status);
}

async function showApiPage(deps: WebDeps, ctx: WebContext): Promise<void> {
  if (requireUser(ctx)) await renderApiPage(deps, ctx);
}

async function createToken(deps: WebDeps, ctx: WebContext): Promise<void> {
  const user = requireUser(ctx);
  if (!user) return;
  const form = await readForm(ctx, deps.config);
  const values = { name: (form.get('name') ?? '').trim(), expires: (form.get('expires') ?? '').trim() };
  const errors: FormErrors = {};
  const invalidName = nameError(values.name);
  if (invalidName) errors.name = invalidName;
  let expiresAt: Date | null = null;
  if (values.expires) {
    expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? new Date(`${values.expires}T00:00:00Z`) : null;
    if (!expiresAt || Number.isNaN(expiresAt.getTime())) errors.expires = 'The expiry must be a date (YYYY-MM-DD).';
    else if (expiresAt.getTime() <= deps.clock().getTime()) errors.expires = 'The expiry must be a date in the future.';
  }
  if (Object.keys(errors).length) return renderApiPage(deps, ctx, { values, errors }, 422);
  const { token } = await mintToken(deps.storage.tokens, user.id, values.name, expiresAt);
  // Rendered directly, not redirected: the value exists only in this response.
  await renderApiPage(deps, ctx, { newToken: { name: values.name, value: token } }, 201);
}

async function removeToken(deps: WebDeps, ctx: WebContext): Promise<void> {
  const user = requireUser(ctx);
  if (!user) return;
  await readForm(ctx, deps.config);
  const id = /^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
  if (!Number.isSafeInteger(id) || !(await deleteToken(deps.storage.tokens, user.id, id))) throw notFound();
  ctx.status = 303;
  ctx.redirect('/account/api');
}

const imageUrlFor = (deps: WebDeps, scan: Scan, audience: ImageAudience) => (name: string) =>
  assetUrl(deps.config.baseUrl, deps.config.keys, scan, name, deps.clock(), audience);

async function showReport(deps: WebDeps, ctx: WebContext): Promise<void> {
  const user = webUser(ctx);
  const scan = await deps.storage.scans.find(ctx.params.id ?? '');
  const visible = scan && (scan.isPublic || (user && user.id === scan.userId));
  if (!visible) {
    // Not signed in: sign in first (the same answer whether or not such a scan exists).
    if (!user) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
    throw notFound();
  }
  const locale = negotiateLocale(ctx.get('accept-language'));
  page(ctx, reportPage({ scan, locale, imageUrl: imageUrlFor(deps, scan, 'owner'), signedInAs: user?.email, csrf: user ? csrfToken(ctx, deps.config) : undefined }));
}

async function showSharedReport(deps: WebDeps, ctx: WebContext): Promise<void> {
  const token = ctx.params.token ?? '';
  const scan = /^[A-Za-z0-9_-]{32}$/.test(token) ? await deps.storage.scans.findShared(token) : undefined;
  if (!scan) throw notFound();
  ctx.set('X-Robots-Tag', 'noindex');
  page(ctx, reportPage({ scan, locale: negotiateLocale(ctx.get('accept-language')), imageUrl: imageUrlFor(deps, scan, 'share') }));
}

/** Images of public scans for anyone; of private scans with a valid signature (or to their signed-in owner). */
async function serveImage(deps: WebDeps, ctx: WebContext): Promise<void> {
  const { id = '', name = '' } = ctx.params;
  const scan = await deps.storage.scans.find(id);
  if (!scan) throw notFound();
  const query = ctx.query as Record<string, string | undefined>;
  const allowed = scan.isPublic || verifyAssetSignature(deps.config.keys, scan, name, query.expires, query.signature, deps.clock()) || webUser(ctx)?.id === scan.userId;
  const bytes = allowed ? await deps.assets.get(id, name) : null;
  if (!bytes) throw notFound();
  ctx.type = 'image/jpeg';
  ctx.set('Cache-Control', scan.isPublic ? 'public, max-age=86400' : 'private, max-age=3600');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = bytes;
}
