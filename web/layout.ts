import type { Locale } from '../core/i18n/locale.ts';
import { html, SafeHtml } from './html.ts';
import { t, type WebText } from './text.ts';

/** The web area's sections, in navigation order; `current` marks one of them in the navigation. */
export const NAV_ITEMS = [
  { key: 'dashboard', href: '/', label: 'navDashboard' },
  { key: 'scans', href: '/scans', label: 'navScans' },
  { key: 'targets', href: '/targets', label: 'navTargets' },
  { key: 'alerts', href: '/alerts', label: 'navAlerts' },
  { key: 'live', href: '/live', label: 'navLive' },
  { key: 'settings', href: '/account/api', label: 'navSettings' },
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
}

/**
 * The one stylesheet. Below 48rem the navigation takes the header's second row and the account a line of its
 * own. Below 40rem a `table.stack` becomes one block per row: `.wide` cells take a line of their own, a cell's
 * `data-label` is written before it (for cells whose meaning the column heading gave), `td.select` holds a
 * row's checkbox.
 */
const STYLE = `
  :root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --brand: #0b3d91; --bg: #f6f8fa; --focus: #ffbf47; }
  * { box-sizing: border-box; }
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: var(--ink); background: var(--bg); }
  a { color: #0550ae; } a:hover { text-decoration-thickness: 2px; }
  :focus-visible, input:focus-within, select:focus { outline: 3px solid var(--focus); outline-offset: 2px; box-shadow: 0 0 0 5px var(--ink); }
  .skip { position: absolute; left: -999px; } .skip:focus { left: .5rem; top: .5rem; background: #fff; padding: .5rem; z-index: 2; }
  header { background: var(--brand); color: #fff; padding: .5rem 1rem; display: flex; flex-wrap: wrap; gap: .35rem 1rem; align-items: center; }
  header a, header button { color: #fff; }
  .brand { font-weight: 700; font-size: 1.1rem; text-decoration: none; padding: .35rem 0; }
  nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem; }
  nav a { display: block; padding: .35rem .55rem; border-radius: 4px; text-decoration: none; white-space: nowrap; }
  nav a:hover { background: rgba(255, 255, 255, .15); }
  nav a[aria-current=page] { background: #fff; color: var(--brand); font-weight: 600; }
  .badge { display: inline-block; min-width: 1.3rem; padding: 0 .35rem; margin-left: .25rem; border-radius: 999px; background: #ffd33d; color: #1b1f24; font-size: .8rem; font-weight: 700; text-align: center; }
  .account { margin-left: auto; display: flex; gap: .5rem; align-items: center; font-size: .9rem; min-width: 0; }
  .account .who { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 18rem; }
  .account button, .account a { background: transparent; border: 1px solid #fff; border-radius: 4px; margin: 0; padding: .3rem .7rem; white-space: nowrap; text-decoration: none; }
  .account a:hover, .account button:hover { background: rgba(255, 255, 255, .15); }
  main { max-width: 64rem; margin: 1.5rem auto; padding: 0 1rem; }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin-bottom: 1.25rem; overflow-x: auto; }
  section > :first-child { margin-top: 0; }
  h1 { font-size: 1.6rem; margin: .25rem 0 1rem; } h2 { font-size: 1.25rem; margin-top: 0; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid #eaeef2; font-size: .92rem; vertical-align: top; }
  label { display: block; margin: .6rem 0 .2rem; font-weight: 600; }
  input[type=text], input[type=url], input[type=email], input[type=password], input[type=date], input[type=number], select {
    padding: .5rem; width: 100%; max-width: 28rem; font: inherit; border: 1px solid #8c959f; border-radius: 4px; }
  button, .button { display: inline-block; padding: .5rem 1rem; margin-top: .75rem; cursor: pointer; font: inherit; border-radius: 4px;
    border: 1px solid var(--brand); background: var(--brand); color: #fff; text-decoration: none; }
  button.secondary, .button.secondary { background: #fff; color: var(--brand); }
  .error { color: #b3261e; } .notice { background: #dafbe1; border: 1px solid #4ac26b; padding: .75rem; border-radius: 6px; }
  .muted { color: var(--muted); } .inline { display: inline; } .inline button { margin: 0; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .url, td.url a { overflow-wrap: anywhere; }
  code.token { display: block; font-size: 1.05rem; padding: .5rem; background: #fff8c5; word-break: break-all; }
  .score-pill { display: inline-block; min-width: 2.4rem; text-align: center; border-radius: 999px; padding: 0 .4rem; font-weight: 700; border: 2px solid; }
  .score-good { color: #0a6b2c; border-color: #1a7f37; } .score-average { color: #8a4600; border-color: #bf8700; } .score-poor { color: #b3261e; border-color: #cf222e; }
  .dash-list { list-style: none; padding: 0; margin: 0; } .dash-list li { display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: center; padding: .5rem 0; border-bottom: 1px solid #eaeef2; }
  .dash-list a { overflow-wrap: anywhere; }
  .severity-critical { color: #b3261e; } .severity-warning { color: #8a4600; }
  footer { max-width: 64rem; margin: 0 auto 2rem; padding: 0 1rem; font-size: .9rem; color: var(--muted); }
  footer a { color: var(--muted); display: inline-block; padding: .25rem 0; }
  @media (max-width: 47.99rem) {
    header { padding: .5rem .75rem; }
    header nav { flex-basis: 100%; order: 2; }
    nav li { flex: 1 1 auto; }
    nav a { text-align: center; padding: .35rem .4rem; }
    header.signed-in .account { order: 3; flex-basis: 100%; margin-left: 0; justify-content: space-between; border-top: 1px solid rgba(255, 255, 255, .35); padding-top: .4rem; }
  }
  @media (max-width: 40rem) {
    main { margin-top: 1rem; padding: 0 .75rem; } section { padding: .75rem; } h1 { font-size: 1.35rem; }
    table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.stack tr { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem .75rem; padding: .55rem 0; border-bottom: 1px solid #eaeef2; }
    table.stack td, table.stack th { display: block; padding: 0; border: 0; }
    table.stack .wide { flex: 1 0 100%; } table.stack td.select { flex: 0 0 1.5rem; } table.stack td.select:empty { display: none; } table.stack td.select:not(:empty) + .wide { flex-basis: calc(100% - 2.5rem); }
    table.stack [data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
  }
`;

/** The page's frame: header with the navigation (signed in) or sign-in links, the body, the language switch. */
export function layout(title: string, body: SafeHtml, chrome: Chrome): string {
  const text = t(chrome.locale);
  const user = chrome.user;
  const nav = user
    ? html`<nav aria-label="${text.navLabel}"><ul>${NAV_ITEMS.map(
        (item) => html`<li><a href="${item.href}" ${chrome.current === item.key ? new SafeHtml('aria-current="page"') : ''}>${text[item.label]}${
          item.key === 'alerts' && user.unreadAlerts ? html`<span class="badge" aria-label="${text.unread(user.unreadAlerts)}">${user.unreadAlerts}</span>` : ''
        }</a></li>`,
      )}</ul></nav>
      <div class="account"><span class="who" title="${user.email}">${user.email}</span>
        <form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${chrome.csrf ?? ''}"><button type="submit">${text.signOut}</button></form></div>`
    : html`<div class="account"><a href="/login">${text.signIn}</a><a href="/signup">${text.signUp}</a></div>`;
  const back = chrome.path ?? '/';
  const other: Locale = chrome.locale === 'en' ? 'de' : 'en';
  const switcher = html`<a href="/language/${other}?next=${encodeURIComponent(back)}" hreflang="${other}" lang="${other}" id="language-switch">${text.switchTo}</a>`;
  return `<!doctype html>${html`<html lang="${chrome.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · WebPerf</title><meta name="description" content="${text.tagline}"><style>${new SafeHtml(STYLE)}</style>${chrome.head ?? ''}</head>
<body><a class="skip" href="#main">${text.skip}</a><header class="${user ? 'signed-in' : 'signed-out'}"><a class="brand" href="/">WebPerf</a>${nav}</header>
<main id="main">${body}</main><footer>${switcher}</footer></body></html>`.value}`;
}

export const scoreClass = (score: number): string => (score >= 90 ? 'score-good' : score >= 50 ? 'score-average' : 'score-poor');

/** A score as a coloured pill; the colour is never the only signal (the number is the content). */
export const scorePill = (score: number | null | undefined): SafeHtml =>
  score === null || score === undefined ? html`<span class="muted">—</span>` : html`<span class="score-pill ${scoreClass(score)}">${score}</span>`;
