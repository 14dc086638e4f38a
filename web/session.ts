import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import type { User } from '../db/models/User.ts';
import { findUser } from '../services/accounts.ts';
import { HttpError } from '../api/errors.ts';
import { unstorableField, unstorableMessage } from '../api/input-guard.ts';

export const SESSION_COOKIE = 'wps_session';
export const CSRF_COOKIE = 'wps_csrf';
const SESSION_DAYS = 14;
const FORM_LIMIT_BYTES = 16 * 1024;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Cookies are Secure everywhere except plain-http loopback development. */
export function cookieOptions(config: Config, maxAgeMs?: number) {
  const base = new URL(config.baseUrl);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname);
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: !(base.protocol === 'http:' && loopback),
    path: '/',
    overwrite: true,
    ...(maxAgeMs ? { maxAge: maxAgeMs } : {}),
  };
}

/**
 * Sets a cookie with our options. Secure is about the browser's connection to BASE_URL, not about the hop
 * that reaches us (TLS usually ends at a proxy), so the cookie jar is told the connection is secure.
 */
function setCookie(ctx: Context, name: string, value: string, options: Omit<ReturnType<typeof cookieOptions>, 'sameSite'> & { sameSite: 'lax' | 'strict' }): void {
  if (options.secure) ctx.cookies.secure = true;
  ctx.cookies.set(name, value, options);
}

export async function startSession(ctx: Context, deps: { knex: Knex; config: Config; clock: Clock }, userId: number): Promise<void> {
  const value = randomBytes(32).toString('base64url');
  const maxAge = SESSION_DAYS * 86_400_000;
  await deps.knex('web_sessions').insert({ id_hash: sha256(value), user_id: userId, expires_at: new Date(deps.clock().getTime() + maxAge) });
  setCookie(ctx, SESSION_COOKIE, value, cookieOptions(deps.config, maxAge));
}

export async function endSession(ctx: Context, deps: { knex: Knex; config: Config }): Promise<void> {
  const value = ctx.cookies.get(SESSION_COOKIE);
  if (value) await deps.knex('web_sessions').where({ id_hash: sha256(value) }).delete();
  setCookie(ctx, SESSION_COOKIE, '', { ...cookieOptions(deps.config), maxAge: 0 });
}

/** Sets ctx.state.webUser when the session cookie names a live session. */
export function loadSession(deps: { knex: Knex; clock: Clock }) {
  return async (ctx: Context, next: Next) => {
    const value = ctx.cookies.get(SESSION_COOKIE);
    if (value && /^[A-Za-z0-9_-]{43}$/.test(value)) {
      const row = await deps.knex('web_sessions').where({ id_hash: sha256(value) }).where('expires_at', '>', deps.clock()).first<{ user_id: number } | undefined>('user_id');
      const user = row && (await findUser(deps.knex, row.user_id));
      if (user) ctx.state.webUser = user;
    }
    await next();
  };
}

export const webUser = (ctx: Context): User | undefined => ctx.state.webUser as User | undefined;

/** The CSRF token for forms: a random value in an HttpOnly SameSite=Strict cookie, echoed in a hidden field. */
export function csrfToken(ctx: Context, config: Config): string {
  const existing = ctx.cookies.get(CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
  const value = randomBytes(24).toString('base64url');
  setCookie(ctx, CSRF_COOKIE, value, { ...cookieOptions(config), sameSite: 'strict' });
  return value;
}

/**
 * Reads an urlencoded form and checks CSRF: the hidden field must equal the cookie (double submit), and a
 * browser's Origin, when sent, must be our own. Any failure is a 403 before anything changes.
 */
export async function readForm(ctx: Context, config: Config): Promise<URLSearchParams> {
  const origin = ctx.get('origin');
  if (origin && origin !== new URL(config.baseUrl).origin) {
    throw new HttpError(403, { message: 'Cross-site form submission refused.' });
  }
  if (!ctx.is('application/x-www-form-urlencoded')) throw new HttpError(415, { message: 'Forms must be sent as application/x-www-form-urlencoded.' });
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: FORM_LIMIT_BYTES, encoding: 'utf-8' });
  } catch {
    throw new HttpError(413, { message: 'The form is too large.' });
  }
  const form = new URLSearchParams(text);
  const cookie = ctx.cookies.get(CSRF_COOKIE) ?? '';
  const [expected, given] = [Buffer.from(cookie), Buffer.from(form.get('_csrf') ?? '')];
  // Byte lengths: a field of the cookie's length in characters but not in bytes would make timingSafeEqual throw.
  const ok = expected.length > 0 && expected.length === given.length && timingSafeEqual(expected, given);
  if (!ok) throw new HttpError(403, { message: 'The form has expired or did not come from this site. Reload the page and try again.' });
  // Every occurrence: a repeated field could hide a NUL in the copy that form.get() returns.
  const unstorable = [...form].map(([name, value]) => unstorableField({ [name]: value }, 'form')).find(Boolean);
  if (unstorable) throw new HttpError(400, { message: unstorableMessage(`${unstorable} field`) });
  return form;
}
