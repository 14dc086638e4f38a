import type { Context } from 'koa';
import type { Config } from '../infra/config.ts';
import { LOCALES, negotiateLocale, type Locale } from '../core/i18n/locale.ts';
import { cookieOptions, getCookie, setCookie } from './session.ts';

const LANGUAGE_COOKIE = 'wps_lang';
const ONE_YEAR_MS = 365 * 86_400_000;

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The page language: the visitor's own choice (the language switch's cookie), else their browser's Accept-Language. */
export function pageLocale(ctx: Context, config: Config): Locale {
  const chosen = getCookie(ctx, config, LANGUAGE_COOKIE);
  return isLocale(chosen) ? chosen : negotiateLocale(ctx.get('accept-language'));
}

export function rememberLocale(ctx: Context, config: Config, locale: Locale): void {
  setCookie(ctx, config, LANGUAGE_COOKIE, locale, { ...cookieOptions(config, ONE_YEAR_MS), sameSite: 'lax' });
}

/** A path on this site to return to (no open redirects: `//evil`, `/\evil`, absolute URLs fall back to `/`). */
export function localPath(value: unknown, fallback = '/'): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value) && value.length <= 2048 ? value : fallback;
}
