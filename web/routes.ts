import Router, { type RouterContext } from '@koa/router';
import type { Client } from '@temporalio/client';
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import type { Context, Next } from 'koa';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { RumQueries } from '../core/rum/queries.ts';
import type { Logger } from '../infra/logger.ts';
import { planFor } from '../core/plans.ts';
import type { Scan } from '../core/scan/scan.ts';
import type { Storage } from '../db/store/index.ts';
import { notFound, setRetryAfter } from '../http/errors.ts';
import { recordLogIds } from '../http/middleware.ts';
import { AccountError, authenticate, createUser } from '../services/accounts.ts';
import { assetUrl, verifyAssetSignature, type AssetStore, type ImageAudience } from '../services/assets.ts';
import { throttledSignIn } from '../services/sign-in-throttle.ts';
import { reserveSignUp } from '../services/sign-up-throttle.ts';
import { deleteToken, listTokens, mintToken } from '../services/tokens.ts';
import { listApps, revokeApp } from '../services/oauth-apps.ts';
import { resourceUrl } from '../core/oauth/resources.ts';
import { issueDeviceCookie, trustedDevice } from './account/device-cookie.ts';
import { setPageHeaders } from './error-page.ts';
import { localPath, pageLocale } from './locale.ts';
import { mountLivePages } from './live/routes.ts';
import { liveDataSource } from './live/source.ts';
import { mountMonitoringPages } from './monitoring/routes.ts';
import { chromeFor, pageText } from './chrome.ts';
import { mountScanPages } from './scans/routes.ts';
import { mountWebhookPages } from './webhooks/routes.ts';
import { mountOAuthPages } from './oauth/routes.ts';
import { mountDocsPages } from './docs/routes.ts';
import { apiPage, loginPage, signupPage, type ApiPageInput, type FormErrors } from './account/pages.ts';
import { reportPage } from './scans/report-page.ts';
import { serveStylesheet } from './stylesheet.ts';
import { csrfToken, endSession, loadSession, readForm, sameOriginOnly, startSession, webUser } from './session.ts';
import type { WebText } from './text.ts';

export interface WebDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  assets: AssetStore;
  temporal: Client;
  /** The live-data queries (ClickHouse), for the live-data pages. */
  rum: RumQueries;
  /** The OAuth authorization server, for the consent pages. */
  oauthProvider: Provider;
  log?: Logger;
}

type WebContext = RouterContext;
type Handler = (deps: WebDeps, ctx: WebContext) => Promise<void> | void;

/**
 * Runs before the web area's routes and also for paths none of them match, so that every page, error pages
 * included, knows the visitor, their language and their sign-out token. Unsafe requests must come from our pages.
 */
export function webVisitor(deps: Pick<WebDeps, 'storage' | 'config' | 'clock'>): Koa.Middleware {
  const session = loadSession(deps);
  const sameOrigin = sameOriginOnly(deps.config);
  return (ctx: Context, next: Next) =>
    sameOrigin(ctx, () =>
      session(ctx, async () => {
        ctx.state.locale = pageLocale(ctx, deps.config);
        const user = webUser(ctx);
        if (user) {
          ctx.state.csrf = csrfToken(ctx, deps.config);
          ctx.state.unreadAlerts = await deps.storage.alerts.countUnread(user.id);
        }
        await next();
      }),
    );
}

/** The server-rendered web area (after webVisitor): sign-up, sign-in, sign-out, the API and apps page, reports, share pages, images. */
export function webRouter(deps: WebDeps): Router {
  const router = new Router();
  const on = (handler: Handler) => (ctx: WebContext) => handler(deps, ctx);
  mountScanPages(router, deps);
  mountMonitoringPages(router, deps);
  mountWebhookPages(router, deps);
  mountOAuthPages(router, { provider: deps.oauthProvider, storage: deps.storage, config: deps.config, clock: deps.clock });
  mountDocsPages(router, deps);
  mountLivePages(router, { config: deps.config, clock: deps.clock, live: liveDataSource({ rumSites: deps.storage.rumSites, rumAlerts: deps.storage.rumAlerts, clock: deps.clock, ingestPublicUrl: deps.config.ingest.publicUrl, rum: deps.rum }) });
  router.get('/login', on(showSignIn));
  router.post('/login', on(signIn));
  router.get('/signup', on(showSignUp));
  router.post('/signup', on(signUp));
  router.post('/logout', on(signOut));
  router.get('/account/api', on(showApiPage));
  router.post('/account/api/tokens', on(createToken));
  router.post('/account/api/tokens/:id/delete', on(removeToken));
  router.post('/account/api/apps/:grantId/revoke', on(revokeAuthorisedApp));
  router.get('/reports/:id', on(showReport));
  router.get('/share/:token', on(showSharedReport));
  router.get('/assets/:file', serveStylesheet);
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
function retryAfter(ctx: Context, text: WebText, until: Date, now: Date): string {
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

const nameError = (name: string, text: WebText): string | undefined => (!name ? text.nameRequired : name.length > MAX_NAME ? text.nameTooLong(MAX_NAME) : undefined);


function showSignIn(deps: WebDeps, ctx: WebContext): void {
  const { config } = deps;
  const next = afterSignIn(ctx.query.next);
  if (webUser(ctx)) return ctx.redirect(next);
  page(ctx, loginPage(chromeFor(deps, ctx), csrfToken(ctx, config), '', {}, next));
}

async function signIn(deps: WebDeps, ctx: WebContext): Promise<void> {
  const { storage, config } = deps;
  const form = await readForm(ctx, config);
  const email = (form.get('email') ?? '').trim();
  const next = afterSignIn(form.get('next'));
  const now = deps.clock();
  const client = { ip: ctx.ip, device: email ? trustedDevice(ctx, config, email) : null };
  const outcome = email ? await throttledSignIn(storage.throttles, email, client, now, () => authenticate(storage.users, email, form.get('password') ?? '')) : ({ kind: 'wrong_credentials' } as const);
  const text = pageText(deps, ctx);
  if (outcome.kind === 'throttled') {
    return page(ctx, loginPage(chromeFor(deps, ctx), csrfToken(ctx, config), email, { form: `${text.signInThrottled} ${retryAfter(ctx, text, outcome.until, now)}` }, next), 429);
  }
  if (outcome.kind === 'wrong_credentials') return page(ctx, loginPage(chromeFor(deps, ctx), csrfToken(ctx, config), email, { form: text.wrongCredentials }, next), 422);
  await startSession(ctx, deps, outcome.user.id);
  issueDeviceCookie(ctx, config, outcome.user.email);
  ctx.status = 303;
  ctx.redirect(next);
}

function showSignUp(deps: WebDeps, ctx: WebContext): void {
  const next = afterSignIn(ctx.query.next);
  if (webUser(ctx)) return ctx.redirect(next);
  page(ctx, signupPage(chromeFor(deps, ctx), csrfToken(ctx, deps.config), {}, {}, next));
}

async function signUp(deps: WebDeps, ctx: WebContext): Promise<void> {
  const { storage, config } = deps;
  const form = await readForm(ctx, config);
  const values = { name: (form.get('name') ?? '').trim(), email: (form.get('email') ?? '').trim() };
  const next = afterSignIn(form.get('next'));
  const errors: FormErrors = {};
  const text = pageText(deps, ctx);
  const invalidName = nameError(values.name, text);
  if (invalidName) errors.name = invalidName;
  else {
    const now = deps.clock();
    const slot = await reserveSignUp(storage.throttles, ctx.ip, now);
    if (slot.kind === 'throttled') {
      return page(ctx, signupPage(chromeFor(deps, ctx), csrfToken(ctx, config), values, { form: `${text.signUpThrottled} ${retryAfter(ctx, text, slot.until, now)}` }), 429);
    }
    try {
      // The language the visitor reads the site in is the language of their alert e-mails.
      const user = await createUser(storage.users, { ...values, password: form.get('password') ?? '', plan: 'free', locale: pageLocale(ctx, config) });
      await startSession(ctx, deps, user.id);
      issueDeviceCookie(ctx, config, user.email);
      ctx.status = 303;
      return ctx.redirect(next);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      await slot.release();
      errors[error.field] = error.message;
    }
  }
  page(ctx, signupPage(chromeFor(deps, ctx), csrfToken(ctx, config), values, errors, next), 422);
}

async function signOut(deps: WebDeps, ctx: WebContext): Promise<void> {
  await readForm(ctx, deps.config);
  await endSession(ctx, deps);
  ctx.status = 303;
  ctx.redirect('/login');
}

async function renderApiPage(deps: WebDeps, ctx: WebContext, extra: Partial<ApiPageInput> = {}, status = 200): Promise<void> {
  const user = webUser(ctx)!;
  const [tokens, apps] = await Promise.all([listTokens(deps.storage.tokens, user.id), listApps(deps.storage.oauth, user.id)]);
  page(ctx, apiPage({ chrome: chromeFor(deps, ctx, 'settings'), plan: planFor(user.plan), csrf: csrfToken(ctx, deps.config), tokens, apps, mcpUrl: resourceUrl(deps.config.baseUrl, 'mcp'), ...extra }), status);
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
  const text = pageText(deps, ctx);
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

async function removeToken(deps: WebDeps, ctx: WebContext): Promise<void> {
  const user = requireUser(ctx);
  if (!user) return;
  await readForm(ctx, deps.config);
  const id = /^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
  if (!Number.isSafeInteger(id) || !(await deleteToken(deps.storage.tokens, user.id, id))) throw notFound();
  ctx.status = 303;
  ctx.redirect('/account/api');
}

async function revokeAuthorisedApp(deps: WebDeps, ctx: WebContext): Promise<void> {
  const user = requireUser(ctx);
  if (!user) return;
  await readForm(ctx, deps.config);
  const grantId = ctx.params.grantId ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(grantId) || !(await revokeApp(deps.storage.oauth, user.id, grantId))) throw notFound();
  ctx.status = 303;
  ctx.redirect('/account/api');
}

const imageUrlFor = (deps: WebDeps, scan: Scan, audience: ImageAudience) => (name: string) =>
  assetUrl(deps.config.baseUrl, deps.config.keys, scan, name, deps.clock(), audience);

async function showReport(deps: WebDeps, ctx: WebContext): Promise<void> {
  const user = webUser(ctx);
  const scan = await deps.storage.scans.find(ctx.params.id ?? '');
  if (scan) recordLogIds(ctx, { scanId: scan.publicId });
  const visible = scan && (scan.isPublic || (user && user.id === scan.userId));
  if (!visible) {
    // Not signed in: sign in first (the same answer whether or not such a scan exists).
    if (!user) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
    throw notFound();
  }
  page(ctx, reportPage({ scan, chrome: chromeFor(deps, ctx, 'scans'), imageUrl: imageUrlFor(deps, scan, 'owner') }));
}

async function showSharedReport(deps: WebDeps, ctx: WebContext): Promise<void> {
  const token = ctx.params.token ?? '';
  const scan = /^[A-Za-z0-9_-]{32}$/.test(token) ? await deps.storage.scans.findShared(token) : undefined;
  if (!scan) throw notFound();
  // The scan's id, never the token (a bearer secret; the logged path has it redacted).
  recordLogIds(ctx, { scanId: scan.publicId });
  ctx.set('X-Robots-Tag', 'noindex');
  // A share page is for anyone: no navigation of the owner's account, whoever is signed in.
  page(ctx, reportPage({ scan, chrome: { locale: pageLocale(ctx, deps.config), path: ctx.url }, imageUrl: imageUrlFor(deps, scan, 'share') }));
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
