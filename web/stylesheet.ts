import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';

/** The sections of the stylesheet a page turns on with a `sheet-NAME` class on <body> (the rest apply everywhere). */
export type Sheet =
  'monitoring' | 'live' | 'scan-box' | 'scan-list' | 'scan-progress' | 'scan-compare' | 'report' | 'flows';

const PARTS = new URL('./assets/site/', import.meta.url);

/**
 * The one stylesheet, written per feature in assets/site/ (a page's sections, in the cascade's order: the files'
 * name order) and joined here at start-up, a blank line between two files.
 */
const CSS = Buffer.from(
  readdirSync(PARTS)
    .filter((name) => name.endsWith('.css'))
    .sort()
    .map((name) => readFileSync(new URL(name, PARTS), 'utf8'))
    .join('\n'),
);
const GZIPPED = gzipSync(CSS, { level: 9 });
const HASH = createHash('sha256').update(CSS).digest('hex').slice(0, 16);

/** The stylesheet's URL: it names the content, so a browser may keep it for a year and a new release gets a new URL. */
export const STYLESHEET_PATH = `/assets/site.${HASH}.css`;

/** Serves the stylesheet at its current URL only; any other `/assets/site.*.css` is not found. */
export function serveStylesheet(ctx: Context): void {
  if (ctx.path !== STYLESHEET_PATH) return;
  ctx.type = 'text/css; charset=utf-8';
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.vary('Accept-Encoding');
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = GZIPPED;
  } else {
    ctx.body = CSS;
  }
}
