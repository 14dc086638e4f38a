import type { Context } from 'koa';
import { html, layout } from './html.ts';

/** Headers of every HTML page: never cached, a strict CSP, no type sniffing, no referrer outside the site. */
export function setPageHeaders(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Not allowed',
  404: 'Page not found',
  405: 'Method not allowed',
  413: 'Too large',
  415: 'Unsupported form',
  429: 'Too many requests',
  503: 'Unavailable',
};

/** The web area's answer to an error: an HTML page with the error's message (the API answers JSON instead). */
export function renderErrorPage(ctx: Context, status: number, message: string, requestId?: string): void {
  const title = TITLES[status] ?? (status >= 500 ? 'Server error' : 'Error');
  ctx.status = status;
  setPageHeaders(ctx);
  ctx.type = 'html';
  ctx.body = layout(title, html`<section id="error"><h1>${title}</h1><p class="error">${message}</p>${requestId ? html`<p>Request id: <code>${requestId}</code></p>` : html``}</section>`);
}
