import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type Router from '@koa/router';
import type { RouterContext as Context } from '@koa/router';
import { hasFeature, planFor } from '../../core/plans.ts';
import type { User } from '../../core/user.ts';
import { mintToken } from '../../services/tokens.ts';
import { chromeFor, type PageDeps } from '../chrome.ts';
import { docsText } from './labels.ts';
import { docsPage } from './page.ts';
import { DOCS_SCRIPT } from './script.ts';
import { setPageHeaders } from '../error-page.ts';
import { readForm, webUser } from '../session.ts';

export type DocsDeps = PageDeps;

/** How long the token made for trying calls on the page lives. */
export const TRY_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/**
 * The API reference at /docs: Swagger UI (swagger-ui-dist, served from our own node_modules, no CDN) over the
 * served OpenAPI document, inside the web area's frame. A signed-in user can make a one-hour token that the page
 * fills in, so "Try it out" calls the API as them.
 */
export function mountDocsPages(router: Router, deps: DocsDeps): void {
  const withAssets: DocsRouteDeps = { ...deps, assets: swaggerAssets() };
  const on = (handler: (deps: DocsRouteDeps, ctx: Context) => Promise<void> | void) => (ctx: Context) =>
    handler(withAssets, ctx);
  router.get('/docs', on(showDocs));
  router.post('/docs/try-token', on(makeTryToken));
  router.get('/docs/assets/:file', on(serveAsset));
}

/** The handlers' dependencies: the page's, and Swagger UI's files (read once, at mount). */
type DocsRouteDeps = DocsDeps & { assets: Map<string, Asset> };

function showDocs(deps: DocsRouteDeps, ctx: Context): void {
  render(deps, ctx, null);
}

async function makeTryToken(deps: DocsRouteDeps, ctx: Context): Promise<void> {
  const user = webUser(ctx) as User | undefined;
  if (!user) return ctx.redirect('/login?next=%2Fdocs');
  await readForm(ctx, deps.config);
  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + TRY_TOKEN_LIFETIME_MS);
  // A token of its own purpose: kept out of the user's personal tokens, so visits do not fill that list.
  await deps.storage.tokens.deleteExpiredDocs(user.id, now);
  const { token } = await mintToken(deps.storage.tokens, user.id, docsPageName(deps, ctx), expiresAt, 'docs');
  // Rendered directly, never redirected: the value exists only in this response.
  render(deps, ctx, token, 201);
}

function serveAsset(deps: DocsRouteDeps, ctx: Context): void {
  const asset = deps.assets.get(ctx.params.file ?? '');
  if (!asset) return;
  ctx.type = asset.type;
  ctx.set(
    'Cache-Control',
    ctx.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
  );
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.vary('Accept-Encoding');
  // Swagger UI's bundle is 1.5 MB as it is, about a quarter of that gzipped (compressed once, on first use).
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    asset.gzipped ??= gzipSync(asset.body, { level: 9 });
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = asset.gzipped;
  } else {
    ctx.body = asset.body;
  }
}

function render(deps: DocsDeps, ctx: Context, token: string | null, status = 200): void {
  const chrome = chromeFor(deps, ctx);
  const user = webUser(ctx) as User | undefined;
  ctx.status = status;
  ctx.type = 'html';
  setPageHeaders(ctx);
  // Swagger UI needs its stylesheet, data: images (its icons) and inline styles; scripts stay our own origin's.
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  ctx.body = docsPage(chrome, {
    documentUrl: '/api/v1/openapi.json',
    assetVersion: SWAGGER_VERSION,
    signedIn: Boolean(user),
    hasApi: user ? hasFeature(planFor(user.plan), 'api') : false,
    token,
    apiBase: `${deps.config.baseUrl.replace(/\/$/, '')}/api/v1`,
  });
}

const docsPageName = (deps: DocsDeps, ctx: Context) => docsText(chromeFor(deps, ctx).locale).tokenName;

const require = createRequire(import.meta.url);
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_VERSION = (JSON.parse(readFileSync(join(SWAGGER_DIR, 'package.json'), 'utf8')) as { version: string })
  .version;

interface Asset {
  type: string;
  body: Buffer | string;
  version: string;
  gzipped?: Buffer;
}

function swaggerAssets(): Map<string, Asset> {
  const file = (name: string) => readFileSync(join(SWAGGER_DIR, name));
  return new Map<string, Asset>([
    [
      'swagger-ui-bundle.js',
      { type: 'application/javascript', body: file('swagger-ui-bundle.js'), version: SWAGGER_VERSION },
    ],
    ['swagger-ui.css', { type: 'text/css', body: file('swagger-ui.css'), version: SWAGGER_VERSION }],
    ['docs.js', { type: 'application/javascript', body: DOCS_SCRIPT, version: SWAGGER_VERSION }],
  ]);
}
