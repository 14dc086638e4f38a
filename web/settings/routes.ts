import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { EMAIL_KINDS, type EmailPreferences } from '../../core/email-preferences.ts';
import { resourceUrl } from '../../core/oauth/resources.ts';
import { hasFeature, planFor } from '../../core/plans.ts';
import { decryptSecret, encryptSecret } from '../../core/secrets.ts';
import { forbidden, notFound, setRetryAfter } from '../../http/errors.ts';
import { changePassword } from '../../services/password-change.ts';
import { listApps, revokeApp } from '../../services/oauth-apps.ts';
import { deleteToken, listTokens, mintToken } from '../../services/tokens.ts';
import { chromeFor, type PageDeps } from '../chrome.ts';
import { sendPage } from '../error-page.ts';
import { isLocale, pageLocale, rememberLocale } from '../locale.ts';
import { cookieOptions, csrfToken, getCookie, readForm, setCookie, webSessionHash, webUser } from '../session.ts';
import { accountText } from '../account/labels.ts';
import { trustedDevice } from '../account/device-cookie.ts';
import { SETTINGS_NOTICES, settingsText, type SettingsNotice } from './labels.ts';
import { settingsPage, SETTINGS_PATHS as P, type FormErrors, type SettingsPageInput } from './page.ts';

type Ctx = RouterContext;

const MAX_NAME = 100;
/** The cookie that carries a just-created token's value through the redirect to the page that shows it once. */
const NEW_TOKEN_COOKIE = 'wps_new_token';
const NEW_TOKEN_COOKIE_MS = 5 * 60_000;

/**
 * The settings at /settings: profile (name, the e-mail language), e-mail, password, sessions, alert e-mail
 * preferences, API tokens and authorised apps. Every form answers with a redirect back to its section (POST,
 * redirect, GET) or, with errors, the page with each error beside its field (422).
 */
export function mountSettingsPages(router: Router, deps: PageDeps): void {
  const on = (handler: (deps: PageDeps, ctx: Ctx) => Promise<void>) => (ctx: Ctx) => handler(deps, ctx);
  router.get(P.page, on(showSettings));
  router.post(P.profile, on(saveProfile));
  router.post(P.password, on(savePassword));
  router.post(P.notifications, on(saveNotifications));
  router.post('/settings/sessions/:id/sign-out', on(signOutSession));
  router.post(P.othersSignOut, on(signOutOthers));
  router.post(P.tokens, on(createToken));
  router.post('/settings/tokens/:id/delete', on(removeToken));
  router.post('/settings/apps/:grantId/revoke', on(revokeAuthorisedApp));
}

/** Where a form's redirect lands: the page with what was done, at the section it was done in. */
export const settingsDone = (notice: SettingsNotice, section: string): string => `${P.page}?done=${notice}#${section}`;

function signedIn(ctx: Ctx) {
  const user = webUser(ctx);
  const sessionHash = webSessionHash(ctx);
  if (!user || !sessionHash) {
    if (ctx.method !== 'GET') ctx.status = 303;
    ctx.redirect(`/login?next=${encodeURIComponent(P.page)}`);
    return undefined;
  }
  return { user, sessionHash };
}

async function render(deps: PageDeps, ctx: Ctx, extra: Partial<SettingsPageInput> = {}, status = 200): Promise<void> {
  const { user, sessionHash } = { user: webUser(ctx)!, sessionHash: webSessionHash(ctx)! };
  const { storage } = deps;
  const [locale, sessions, emailPreferences, tokens, apps] = await Promise.all([
    storage.users.localeOf(user.id),
    storage.sessions.listLive(user.id, deps.clock(), sessionHash),
    storage.emailPreferences.get(user.id),
    listTokens(storage.tokens, user.id),
    listApps(storage.oauth, user.id),
  ]);
  sendPage(
    ctx,
    settingsPage({
      chrome: chromeFor(deps, ctx, 'settings'),
      csrf: csrfToken(ctx, deps.config),
      profile: { name: user.name, email: user.email, locale: locale ?? 'en' },
      plan: planFor(user.plan),
      sessions,
      emailPreferences,
      tokens,
      apps,
      mcpUrl: resourceUrl(deps.config.baseUrl, 'mcp'),
      ...extra,
    }),
    status,
  );
}

async function showSettings(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  const done = typeof ctx.query.done === 'string' ? ctx.query.done : '';
  const notice = (SETTINGS_NOTICES as string[]).includes(done) ? (done as SettingsNotice) : undefined;
  await render(deps, ctx, { notice, newToken: takeNewToken(deps, ctx, me.sessionHash) });
}

async function saveProfile(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  const form = await readForm(ctx, deps.config);
  const values = { name: (form.get('name') ?? '').trim(), locale: form.get('locale') ?? '' };
  const text = accountText(pageLocale(ctx, deps.config));
  const errors: FormErrors = {};
  if (!values.name) errors.name = text.nameRequired;
  else if (values.name.length > MAX_NAME) errors.name = text.nameTooLong(MAX_NAME);
  if (!isLocale(values.locale)) errors.locale = settingsText(pageLocale(ctx, deps.config)).languageInvalid;
  if (Object.keys(errors).length || !isLocale(values.locale)) return render(deps, ctx, { values, errors }, 422);
  await deps.storage.users.updateProfile(me.user.id, { name: values.name, locale: values.locale }, deps.clock());
  // The account's language is also this browser's page language from now on (the switch still overrides it).
  rememberLocale(ctx, deps.config, values.locale);
  ctx.status = 303;
  ctx.redirect(settingsDone('profile', 'profile'));
}

async function savePassword(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  const form = await readForm(ctx, deps.config);
  const now = deps.clock();
  const locale = pageLocale(ctx, deps.config);
  const outcome = await changePassword(
    deps.storage,
    me.user,
    {
      current: form.get('current_password') ?? '',
      next: form.get('new_password') ?? '',
      client: { ip: ctx.ip, device: trustedDevice(ctx, deps.config, me.user.email) },
    },
    now,
    locale,
  );
  const text = settingsText(locale);
  if (outcome.kind === 'throttled') {
    const minutes = Math.ceil(setRetryAfter(ctx, { until: outcome.until, now }) / 60);
    const message = `${text.currentPasswordThrottled} ${accountText(locale).tryAgainIn(minutes)}`;
    return render(deps, ctx, { errors: { current_password: message } }, 429);
  }
  if (outcome.kind === 'invalid') {
    const message = outcome.field === 'current_password' ? text.currentPasswordWrong : outcome.message;
    return render(deps, ctx, { errors: { [outcome.field]: message } }, 422);
  }
  await deps.storage.sessions.deleteOthers(me.user.id, me.sessionHash);
  ctx.status = 303;
  ctx.redirect(settingsDone('password', 'password'));
}

async function saveNotifications(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  const form = await readForm(ctx, deps.config);
  const preferences = Object.fromEntries(
    EMAIL_KINDS.map((kind) => [kind, form.get(kind) === 'on']),
  ) as EmailPreferences;
  await deps.storage.emailPreferences.set(me.user.id, preferences, deps.clock());
  ctx.status = 303;
  ctx.redirect(settingsDone('notifications', 'notifications'));
}

const rowId = (value: string | undefined): number => (/^\d{1,15}$/.test(value ?? '') ? Number(value) : Number.NaN);

async function signOutSession(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  await readForm(ctx, deps.config);
  const id = rowId(ctx.params.id);
  if (!Number.isSafeInteger(id) || !(await deps.storage.sessions.deleteOwned(me.user.id, id))) throw notFound();
  ctx.status = 303;
  ctx.redirect(settingsDone('session', 'sessions'));
}

async function signOutOthers(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  await readForm(ctx, deps.config);
  await deps.storage.sessions.deleteOthers(me.user.id, me.sessionHash);
  ctx.status = 303;
  ctx.redirect(settingsDone('sessions', 'sessions'));
}

/** POST /settings/tokens (and the older /account/api/tokens): mints, then redirects to the page that shows it once. */
export async function createToken(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  const form = await readForm(ctx, deps.config);
  const plan = planFor(me.user.plan);
  if (!hasFeature(plan, 'api'))
    throw forbidden(`Your plan (${plan.label}) has no API access, so it has no API tokens.`);
  const values = { token_name: (form.get('name') ?? '').trim(), expires: (form.get('expires') ?? '').trim() };
  const errors: FormErrors = {};
  const text = accountText(pageLocale(ctx, deps.config));
  if (!values.token_name) errors.token_name = text.nameRequired;
  else if (values.token_name.length > MAX_NAME) errors.token_name = text.nameTooLong(MAX_NAME);
  let expiresAt: Date | null = null;
  if (values.expires) {
    expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? new Date(`${values.expires}T00:00:00Z`) : null;
    if (!expiresAt || Number.isNaN(expiresAt.getTime())) errors.expires = text.expiryNotDate;
    else if (expiresAt.getTime() <= deps.clock().getTime()) errors.expires = text.expiryPast;
  }
  if (Object.keys(errors).length) return render(deps, ctx, { values, errors }, 422);
  const { token } = await mintToken(deps.storage.tokens, me.user.id, values.token_name, expiresAt);
  const sealed = encryptSecret(
    deps.config.keys,
    'new-token-cookie',
    JSON.stringify({ name: values.token_name, value: token }),
    `new-token:${me.sessionHash}`,
  );
  setCookie(ctx, deps.config, NEW_TOKEN_COOKIE, sealed, {
    ...cookieOptions(deps.config, NEW_TOKEN_COOKIE_MS),
    sameSite: 'strict',
  });
  ctx.status = 303;
  ctx.redirect(`${P.page}#new-token`);
}

/**
 * The token created just before, from its encrypted cookie (bound to this session), which is cleared at once:
 * the value is shown on this one page view and a reload shows (and creates) nothing.
 */
function takeNewToken(deps: PageDeps, ctx: Ctx, sessionHash: string): { name: string; value: string } | undefined {
  const sealed = getCookie(ctx, deps.config, NEW_TOKEN_COOKIE);
  if (!sealed) return undefined;
  setCookie(ctx, deps.config, NEW_TOKEN_COOKIE, '', { ...cookieOptions(deps.config), maxAge: 0, sameSite: 'strict' });
  try {
    const opened = JSON.parse(
      decryptSecret(deps.config.keys, 'new-token-cookie', sealed, `new-token:${sessionHash}`),
    ) as unknown;
    if (
      opened &&
      typeof opened === 'object' &&
      typeof (opened as { name?: unknown }).name === 'string' &&
      typeof (opened as { value?: unknown }).value === 'string'
    )
      return opened as { name: string; value: string };
  } catch {
    // Another session's, tampered with, or made with a key no longer configured: nothing to show.
  }
  return undefined;
}

export async function removeToken(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  await readForm(ctx, deps.config);
  const id = rowId(ctx.params.id);
  if (!Number.isSafeInteger(id) || !(await deleteToken(deps.storage.tokens, me.user.id, id))) throw notFound();
  ctx.status = 303;
  ctx.redirect(settingsDone('token_deleted', 'api-tokens'));
}

export async function revokeAuthorisedApp(deps: PageDeps, ctx: Ctx): Promise<void> {
  const me = signedIn(ctx);
  if (!me) return;
  await readForm(ctx, deps.config);
  const grantId = ctx.params.grantId ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(grantId) || !(await revokeApp(deps.storage.oauth, me.user.id, grantId)))
    throw notFound();
  ctx.status = 303;
  ctx.redirect(settingsDone('app_revoked', 'apps'));
}
