import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import { planFor } from '../core/plans.ts';
import { notFound } from '../api/errors.ts';
import { AccountError, authenticate, createUser } from '../services/accounts.ts';
import { throttledSignIn } from '../services/sign-in-throttle.ts';
import { reserveSignUp } from '../services/sign-up-throttle.ts';
import { deleteToken, listTokens, mintToken } from '../services/tokens.ts';
import { negotiateLocale } from '../core/i18n/locale.ts';
import type { Scan } from '../db/models/Scan.ts';
import { assetUrl, verifyAssetSignature, type AssetStore, type ImageAudience } from '../services/assets.ts';
import { findScan, findSharedScan } from '../services/scans.ts';
import { apiPage, loginPage, signupPage, type FormErrors } from './pages.ts';
import { setPageHeaders } from './error-page.ts';
import { reportPage } from './report.ts';
import { issueDeviceCookie, trustedDevice } from './device-cookie.ts';
import { csrfToken, endSession, loadSession, readForm, sameOriginOnly, startSession, webUser } from './session.ts';

export interface WebDeps {
  knex: Knex;
  config: Config;
  clock: Clock;
  assets: AssetStore;
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
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  ctx.set('Retry-After', String(seconds));
  return `Try again in ${Math.ceil(seconds / 60)} minute(s).`;
}

/** The server-rendered web area: sign-up, sign-in, sign-out and the API and apps page. */
export function webRouter(deps: WebDeps): Router {
  const { knex, config, clock } = deps;
  const router = new Router();
  router.use(sameOriginOnly(config));
  router.use(loadSession({ knex, config, clock }));

  /** Where sign-in leads: a path on this site that was asked for, else the API page (no open redirects). */
  const afterSignIn = (value: unknown): string =>
    typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value) && value.length <= 300 ? value : '/account/api';

  const requireUser = (ctx: Context) => {
    const user = webUser(ctx);
    if (!user) ctx.redirect('/login');
    return user;
  };

  router.get('/', (ctx) => ctx.redirect(webUser(ctx) ? '/account/api' : '/login'));

  router.get('/login', (ctx) => {
    const next = afterSignIn(ctx.query.next);
    if (webUser(ctx)) return ctx.redirect(next);
    page(ctx, loginPage(csrfToken(ctx, config), '', {}, next));
  });

  router.post('/login', async (ctx) => {
    const form = await readForm(ctx, config);
    const email = (form.get('email') ?? '').trim();
    const next = afterSignIn(form.get('next'));
    const now = clock();
    const client = { ip: ctx.ip, device: email ? trustedDevice(ctx, config, email) : null };
    const outcome = email ? await throttledSignIn(knex, email, client, now, () => authenticate(knex, email, form.get('password') ?? '')) : ({ kind: 'wrong_credentials' } as const);
    if (outcome.kind === 'throttled') {
      return page(ctx, loginPage(csrfToken(ctx, config), email, { form: `Too many failed sign-in attempts. ${retryAfter(ctx, outcome.until, now)}` }, next), 429);
    }
    if (outcome.kind === 'wrong_credentials') return page(ctx, loginPage(csrfToken(ctx, config), email, { form: 'These credentials do not match our records.' }, next), 422);
    const user = outcome.user;
    await startSession(ctx, deps, user.id);
    issueDeviceCookie(ctx, config, user.email);
    ctx.status = 303;
    ctx.redirect(next);
  });

  router.get('/signup', (ctx) => page(ctx, signupPage(csrfToken(ctx, config))));

  router.post('/signup', async (ctx) => {
    const form = await readForm(ctx, config);
    const values = { name: (form.get('name') ?? '').trim(), email: (form.get('email') ?? '').trim() };
    const errors: FormErrors = {};
    if (!values.name) errors.name = 'The name field is required.';
    else if (values.name.length > MAX_NAME) errors.name = `The name may not be greater than ${MAX_NAME} characters.`;
    if (Object.keys(errors).length === 0) {
      const now = clock();
      const slot = await reserveSignUp(knex, ctx.ip, now);
      if (slot.kind === 'throttled') {
        return page(ctx, signupPage(csrfToken(ctx, config), values, { form: `Too many sign-ups from your network. ${retryAfter(ctx, slot.until, now)}` }), 429);
      }
      try {
        const user = await createUser(knex, { ...values, password: form.get('password') ?? '', plan: 'free' });
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
  });

  router.post('/logout', async (ctx) => {
    await readForm(ctx, config);
    await endSession(ctx, deps);
    ctx.status = 303;
    ctx.redirect('/login');
  });

  const renderApiPage = async (ctx: Context, extra: Partial<Parameters<typeof apiPage>[0]> = {}, status = 200) => {
    const user = webUser(ctx)!;
    page(ctx, apiPage({ email: user.email, plan: planFor(user.plan), csrf: csrfToken(ctx, config), tokens: await listTokens(knex, user.id), ...extra }), status);
  };

  router.get('/account/api', async (ctx) => {
    if (requireUser(ctx)) await renderApiPage(ctx);
  });

  router.post('/account/api/tokens', async (ctx) => {
    const user = requireUser(ctx);
    if (!user) return;
    const form = await readForm(ctx, config);
    const values = { name: (form.get('name') ?? '').trim(), expires: (form.get('expires') ?? '').trim() };
    const errors: FormErrors = {};
    if (!values.name) errors.name = 'The name field is required.';
    else if (values.name.length > MAX_NAME) errors.name = `The name may not be greater than ${MAX_NAME} characters.`;
    let expiresAt: Date | null = null;
    if (values.expires) {
      expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? new Date(`${values.expires}T00:00:00Z`) : null;
      if (!expiresAt || Number.isNaN(expiresAt.getTime())) errors.expires = 'The expiry must be a date (YYYY-MM-DD).';
      else if (expiresAt.getTime() <= clock().getTime()) errors.expires = 'The expiry must be a date in the future.';
    }
    if (Object.keys(errors).length) return renderApiPage(ctx, { values, errors }, 422);
    const { token } = await mintToken(knex, user.id, values.name, expiresAt);
    // Rendered directly, not redirected: the value exists only in this response.
    await renderApiPage(ctx, { newToken: { name: values.name, value: token } }, 201);
  });

  router.post('/account/api/tokens/:id/delete', async (ctx) => {
    const user = requireUser(ctx);
    if (!user) return;
    await readForm(ctx, config);
    const id = /^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
    if (!Number.isSafeInteger(id) || !(await deleteToken(knex, user.id, id))) throw notFound();
    ctx.status = 303;
    ctx.redirect('/account/api');
  });

  router.get('/reports/:id', async (ctx) => {
    const user = webUser(ctx);
    const scan = await findScan(knex, ctx.params.id ?? '');
    const visible = scan && (scan.is_public || (user && user.id === scan.user_id));
    if (!visible) {
      // Not signed in: sign in first (the same answer whether or not such a scan exists).
      if (!user) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
      throw notFound();
    }
    page(ctx, reportPage({ scan, locale: negotiateLocale(ctx.get('accept-language')), imageUrl: imageUrlFor(scan, 'owner'), signedInAs: user?.email, csrf: user ? csrfToken(ctx, config) : undefined }));
  });

  router.get('/share/:token', async (ctx) => {
    const token = ctx.params.token ?? '';
    const scan = /^[A-Za-z0-9_-]{32}$/.test(token) ? await findSharedScan(knex, token) : undefined;
    if (!scan) throw notFound();
    ctx.set('X-Robots-Tag', 'noindex');
    page(ctx, reportPage({ scan, locale: negotiateLocale(ctx.get('accept-language')), imageUrl: imageUrlFor(scan, 'share') }));
  });

  /** Images of public scans for anyone; of private scans with a valid signature (or to their signed-in owner). */
  router.get('/assets/:id/:name', async (ctx) => {
    const { id = '', name = '' } = ctx.params;
    const scan = await findScan(knex, id);
    if (!scan) throw notFound();
    const query = ctx.query as Record<string, string | undefined>;
    const allowed = scan.is_public || verifyAssetSignature(config.keys, scan, name, query.expires, query.signature, clock()) || webUser(ctx)?.id === scan.user_id;
    const bytes = allowed ? await deps.assets.get(id, name) : null;
    if (!bytes) throw notFound();
    ctx.type = 'image/jpeg';
    ctx.set('Cache-Control', scan.is_public ? 'public, max-age=86400' : 'private, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = bytes;
  });

  const imageUrlFor = (scan: Scan, audience: ImageAudience) => (name: string) => assetUrl(config.baseUrl, config.keys, scan, name, clock(), audience);

  return router;
}
