import type { Locale } from '../core/i18n/locale.ts';
import { FAVICON_SVG_PATH } from './favicon.ts';
import { html, SafeHtml } from './html.ts';
import { STYLESHEET_PATH, type Sheet } from './stylesheet.ts';
import { t, type WebText } from './text.ts';

/** The web area's sections, in navigation order; `current` marks one of them in the navigation. */
export const NAV_ITEMS = [
  { key: 'dashboard', href: '/', label: 'navDashboard' },
  { key: 'scans', href: '/scans', label: 'navScans' },
  { key: 'targets', href: '/targets', label: 'navTargets' },
  { key: 'alerts', href: '/alerts', label: 'navAlerts' },
  { key: 'live', href: '/live', label: 'navLive' },
  { key: 'flows', href: '/flows', label: 'navFlows' },
  { key: 'settings', href: '/settings', label: 'navSettings' },
] as const satisfies ReadonlyArray<{ key: string; href: string; label: keyof WebText }>;

export type NavKey = (typeof NAV_ITEMS)[number]['key'];

/** What every page's frame needs beyond its own body. */
export interface Chrome {
  locale: Locale;
  /** The signed-in visitor; signed-out pages show sign-in and sign-up instead of the navigation. */
  user?: { email: string; unreadAlerts?: number };
  /** For the sign-out form. */
  csrf?: string;
  current?: NavKey;
  /** This page's path and query, where the language switch returns to. */
  path?: string;
  /** Extra elements for <head> (a refresh fallback, a script). */
  head?: SafeHtml;
  /** The stylesheet's sections this page needs beyond those for every page. */
  sheets?: readonly Sheet[];
  /** A notice above every page's body (the unverified e-mail address's banner). */
  banner?: SafeHtml;
}

/** The page's frame: header with the navigation (signed in) or sign-in links, the body, the language switch. */
export function layout(title: string, body: SafeHtml, chrome: Chrome): string {
  const text = t(chrome.locale);
  const user = chrome.user;
  const nav = user
    ? html`<nav aria-label="${text.navLabel}"><ul>${NAV_ITEMS.map(
        (item) =>
          html`<li><a href="${item.href}" ${chrome.current === item.key ? new SafeHtml('aria-current="page"') : ''}>${text[item.label]}${
            item.key === 'alerts' && user.unreadAlerts
              ? html`<span class="badge" aria-label="${text.unread(user.unreadAlerts)}">${user.unreadAlerts}</span>`
              : ''
          }</a></li>`,
      )}</ul></nav>
      <div class="account"><span class="who" title="${user.email}">${user.email}</span>
        <form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${chrome.csrf ?? ''}"><button type="submit">${text.signOut}</button></form></div>`
    : html`<div class="account"><a href="/login">${text.signIn}</a><a href="/signup">${text.signUp}</a></div>`;
  const back = chrome.path ?? '/';
  const other: Locale = chrome.locale === 'en' ? 'de' : 'en';
  const switcher = html`<a href="/language/${other}?next=${encodeURIComponent(back)}" hreflang="${other}" lang="${other}" id="language-switch">${text.switchTo}</a>`;
  return `<!doctype html>${
    html`<html lang="${chrome.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · WebPerf</title><meta name="description" content="${text.tagline}"><link rel="stylesheet" href="${STYLESHEET_PATH}"><link rel="icon" href="/favicon.ico" sizes="32x32"><link rel="icon" href="${FAVICON_SVG_PATH}" type="image/svg+xml">${chrome.head ?? ''}</head>
<body${chrome.sheets?.length ? html` class="${chrome.sheets.map((sheet) => `sheet-${sheet}`).join(' ')}"` : ''}><a class="skip" href="#main">${text.skip}</a><header class="${user ? 'signed-in' : 'signed-out'}"><a class="brand" href="/">WebPerf</a>${nav}</header>
<main id="main">${chrome.banner ?? ''}${body}</main><footer>${switcher}</footer></body></html>`.value
  }`;
}

export const scoreClass = (score: number): string =>
  score >= 90 ? 'score-good' : score >= 50 ? 'score-average' : 'score-poor';

/** A score as a coloured pill; the colour is never the only signal (the number is the content). */
export const scorePill = (score: number | null | undefined): SafeHtml =>
  score === null || score === undefined
    ? html`<span class="muted">—</span>`
    : html`<span class="score-pill ${scoreClass(score)}">${score}</span>`;
