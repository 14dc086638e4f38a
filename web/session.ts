import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { User } from '../core/user.ts';
import type { SessionStore } from '../db/store/sessions.ts';
import { forbidden, HttpError } from '../http/errors.ts';
import { purposeKey } from '../core/keys.ts';
import {
  decodeUtf8,
  notUtf8Message,
  undecodableField,
  unstorableField,
  unstorableMessage,
} from '../http/input-guard.ts';

export const SESSION_COOKIE = 'wps_session';
/** A random id for a visitor who is not signed in, so their forms' CSRF tokens have something to be bound to. */
export const PRE_SESSION_COOKIE = 'wps_presession';
const SESSION_DAYS = 14;
const FORM_LIMIT_BYTES = 16 * 1024;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;
/** A session's last use is written at most this often, so most requests only read it. */
export const LAST_SEEN_GRANULARITY_MS = 5 * 60_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const isHttps = (config: Config) => new URL(config.baseUrl).protocol === 'https:';

/**
 * Our cookies' names: under https with the `__Host-` prefix, which browsers accept only from a secure origin,
 * with Secure, Path=/ and no Domain, so a sibling subdomain cannot plant or shadow them.
 */
export const cookieName = (config: Config, name: string): string => (isHttps(config) ? `__Host-${name}` : name);

/** Cookies are Secure everywhere except plain-http loopback development; always Path=/ and host-only. */
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
export function setCookie(
  ctx: Context,
  config: Config,
  name: string,
  value: string,
  options: Omit<ReturnType<typeof cookieOptions>, 'sameSite'> & { sameSite: 'lax' | 'strict' },
): void {
  if (options.secure) ctx.cookies.secure = true;
  ctx.cookies.set(cookieName(config, name), value, options);
}

export const getCookie = (ctx: Context, config: Config, name: string): string | undefined =>
  ctx.cookies.get(cookieName(config, name));

interface SessionDeps {
  storage: { sessions: SessionStore };
  config: Config;
  clock: Clock;
}

export async function startSession(ctx: Context, deps: SessionDeps, userId: number): Promise<void> {
  const value = randomBytes(32).toString('base64url');
  const maxAge = SESSION_DAYS * 86_400_000;
  const now = deps.clock();
  const userAgent = ctx.get('user-agent') || null;
  await deps.storage.sessions.create(sha256(value), userId, new Date(now.getTime() + maxAge), userAgent, now);
  setCookie(ctx, deps.config, SESSION_COOKIE, value, cookieOptions(deps.config, maxAge));
}

export async function endSession(ctx: Context, deps: Omit<SessionDeps, 'clock'>): Promise<void> {
  const value = getCookie(ctx, deps.config, SESSION_COOKIE);
  if (value) await deps.storage.sessions.delete(sha256(value));
  setCookie(ctx, deps.config, SESSION_COOKIE, '', { ...cookieOptions(deps.config), maxAge: 0 });
}

/** Sets ctx.state.webUser (and the session's id hash, for CSRF) when the session cookie names a live session. */
export function loadSession(deps: SessionDeps) {
  return async (ctx: Context, next: Next) => {
    const value = getCookie(ctx, deps.config, SESSION_COOKIE);
    if (value && COOKIE_VALUE.test(value)) {
      const idHash = sha256(value);
      const now = deps.clock();
      const session = await deps.storage.sessions.findLive(idHash, now);
      if (session) {
        ctx.state.webUser = session.user;
        ctx.state.webEmailVerified = session.user.emailVerified;
        ctx.state.webSessionHash = idHash;
        const stale = new Date(now.getTime() - LAST_SEEN_GRANULARITY_MS);
        if (session.lastSeenAt < stale) await deps.storage.sessions.touch(session.sessionId, now, stale);
      }
    }
    await next();
  };
}

export const webUser = (ctx: Context): User | undefined => ctx.state.webUser as User | undefined;

/** Whether the signed-in user's address is verified (services/account-mail.ts); false when nobody is signed in. */
export const webEmailVerified = (ctx: Context): boolean => ctx.state.webEmailVerified === true;

/** The SHA-256 of this request's session cookie, when it names a live session. */
export const webSessionHash = (ctx: Context): string | undefined => ctx.state.webSessionHash as string | undefined;

/** The methods that can change something; any other (GET, TRACE) reaches no handler that does. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * Unsafe requests must show they come from our own pages: an Origin of BASE_URL's origin, or, from a client
 * that sends no Origin, a Referer on it. Neither (or "null"): 403 before anything is read or changed.
 */
export function sameOriginOnly(config: Config) {
  const own = new URL(config.baseUrl).origin;
  return async (ctx: Context, next: Next) => {
    if (UNSAFE_METHODS.has(ctx.method)) {
      const origin = ctx.get('origin');
      const referer = ctx.get('referer');
      const ok = origin ? origin === own : referer ? originOf(referer) === own : false;
      if (!ok) throw forbidden('Cross-site form submission refused.');
    }
    await next();
  };
}

/**
 * What this visitor's CSRF tokens are bound to: the live session, else the pre-session id (created here when
 * `create` and missing). A token made for one session is refused in any other.
 */
function csrfBinding(ctx: Context, config: Config, create: boolean): string | null {
  const sessionHash = ctx.state.webSessionHash as string | undefined;
  if (sessionHash) return `session:${sessionHash}`;
  const existing = getCookie(ctx, config, PRE_SESSION_COOKIE);
  if (existing && COOKIE_VALUE.test(existing)) return `visitor:${sha256(existing)}`;
  if (!create) return null;
  const value = randomBytes(32).toString('base64url');
  setCookie(ctx, config, PRE_SESSION_COOKIE, value, { ...cookieOptions(config), sameSite: 'strict' });
  return `visitor:${sha256(value)}`;
}

const csrfFor = (config: Config, binding: string) =>
  createHmac('sha256', purposeKey(config.keys.current, 'csrf')).update(binding).digest('base64url');

/** The CSRF token for this visitor's forms: an HMAC of their session (or pre-session) id, in a hidden field. */
export function csrfToken(ctx: Context, config: Config): string {
  return csrfFor(config, csrfBinding(ctx, config, true)!);
}

/**
 * Reads an urlencoded form and checks its CSRF token against the one this visitor's session (or pre-session)
 * would get. Any failure is a 403 before anything changes. (Origin is checked by sameOriginOnly.) Then text
 * that is not well-formed (http/input-guard.ts) is a 400 naming the field. Forms are
 * capped at 16 KB; a page whose form carries more (the flow editor, a pasted recording) passes its own cap.
 */
export async function readForm(
  ctx: Context,
  config: Config,
  limitBytes: number = FORM_LIMIT_BYTES,
): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw new HttpError(415, { message: 'Forms must be sent as application/x-www-form-urlencoded.' });
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: limitBytes });
  } catch {
    throw new HttpError(413, { message: 'The form is too large.' });
  }
  const text = decodeUtf8(bytes);
  const form = new URLSearchParams(text ?? bytes.toString('utf8'));
  const binding = csrfBinding(ctx, config, false);
  const expected = Buffer.from(binding ? csrfFor(config, binding) : '');
  // Byte lengths: a field of the token's length in characters but not in bytes would make timingSafeEqual throw.
  const field = Buffer.from(form.get('_csrf') ?? '');
  const ok = expected.length > 0 && expected.length === field.length && timingSafeEqual(expected, field);
  if (!ok) throw forbidden('The form has expired or did not come from this site. Reload the page and try again.');
  // Bytes that are not UTF-8 (raw, or percent-encoded) would be U+FFFD in the parsed form: refused as sent.
  if (text === null) throw new HttpError(400, { message: notUtf8Message('form') });
  const undecodable = undecodableField(text);
  if (undecodable !== null) throw new HttpError(400, { message: notUtf8Message(`${undecodable} field`) });
  // Every occurrence: a repeated field could hide a NUL in the copy that form.get() returns.
  const unstorable = [...form].map(([name, value]) => unstorableField({ [name]: value }, 'form')).find(Boolean);
  if (unstorable) throw new HttpError(400, { message: unstorableMessage(`${unstorable} field`) });
  return form;
}
