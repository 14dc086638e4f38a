import type { Context } from 'koa';
import { negotiateLocale, type Locale } from '../core/i18n/locale.ts';
import { html } from './html.ts';
import { layout } from './layout.ts';
import { t } from './text.ts';

/**
 * Headers of every HTML page: never cached, a strict CSP, no type sniffing, no referrer outside the site.
 * Stylesheets come only from this origin (style-src-elem); inline style attributes stay allowed because charts
 * and bars place their parts with computed positions and widths. Browsers without style-src-elem fall back to
 * style-src, which allows both.
 */
export function setPageHeaders(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; img-src 'self'; style-src 'self' 'unsafe-inline'; style-src-elem 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
}

/** Answers an HTML page with the page headers. */
export function sendPage(ctx: Context, body: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'html';
  setPageHeaders(ctx);
  ctx.body = body;
}

/** The web area's answer to an error: an HTML page with the error's message (the API answers JSON instead). */
export function renderErrorPage(ctx: Context, status: number, message: string, requestId?: string): void {
  ctx.status = status;
  setPageHeaders(ctx);
  ctx.type = 'html';
  // The web router records the visitor and the language it chose; errors raised before it fall back to the browser's.
  const locale = (ctx.state.locale as Locale | undefined) ?? negotiateLocale(ctx.get('accept-language'));
  const text = t(locale);
  const title = text.errorTitles[status] ?? (status >= 500 ? text.serverError : text.error);
  const user = ctx.state.webUser as { email: string } | undefined;
  const body = html`<section id="error"><h1>${title}</h1><p class="error">${Object.hasOwn(text.errorMessages, message) ? text.errorMessages[message] : message}</p>${requestId ? html`<p>${text.requestId}: <code>${requestId}</code></p>` : html``}
    <p><a href="/">${text.backHome}</a></p></section>`;
  ctx.body = layout(title, body, {
    locale,
    user: user ? { email: user.email, unreadAlerts: ctx.state.unreadAlerts as number | undefined } : undefined,
    csrf: ctx.state.csrf as string | undefined,
    path: ctx.url,
  });
}
