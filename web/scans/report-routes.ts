import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Clock } from '../../core/clock.ts';
import type { Scan } from '../../core/scan/scan.ts';
import type { Storage } from '../../db/store/index.ts';
import { notFound } from '../../http/errors.ts';
import { recordLogIds } from '../../http/middleware.ts';
import type { Config } from '../../infra/config.ts';
import { assetUrl, verifyAssetSignature, type AssetStore, type ImageAudience } from '../../services/assets.ts';
import { chromeFor } from '../chrome.ts';
import { sendPage } from '../error-page.ts';
import { pageLocale } from '../locale.ts';
import { webUser } from '../session.ts';
import { reportPage } from './report-page.ts';
import { lighthouseLinks, mountLighthouseReportPages } from './report-lighthouse.ts';

export interface ReportPageDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  assets: AssetStore;
}

type Ctx = RouterContext;

/** A scan's report for its owner (or anyone, if public), its share page, and its images. */
export function mountReportPages(router: Router, deps: ReportPageDeps): void {
  const on = (handler: (deps: ReportPageDeps, ctx: Ctx) => Promise<void>) => (ctx: Ctx) => handler(deps, ctx);
  router.get('/reports/:id', on(showReport));
  router.get('/share/:token', on(showSharedReport));
  router.get('/assets/:id/:name', on(serveImage));
  mountLighthouseReportPages(router, deps);
}

const imageUrlFor = (deps: ReportPageDeps, scan: Scan, audience: ImageAudience) => (name: string) =>
  assetUrl(deps.config.baseUrl, deps.config.keys, scan, name, deps.clock(), audience);

async function showReport(deps: ReportPageDeps, ctx: Ctx): Promise<void> {
  const user = webUser(ctx);
  const scan = await deps.storage.scans.find(ctx.params.id ?? '');
  if (scan) recordLogIds(ctx, { scanId: scan.publicId });
  const visible = scan && (scan.isPublic || (user && user.id === scan.userId));
  if (!visible) {
    // Not signed in: sign in first (the same answer whether or not such a scan exists).
    if (!user) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
    throw notFound();
  }
  sendPage(
    ctx,
    reportPage({
      scan,
      chrome: chromeFor(deps, ctx, 'scans'),
      imageUrl: imageUrlFor(deps, scan, 'owner'),
      lighthouse: await lighthouseLinks(deps.storage, scan, `/reports/${scan.publicId}`),
    }),
  );
}

async function showSharedReport(deps: ReportPageDeps, ctx: Ctx): Promise<void> {
  const token = ctx.params.token ?? '';
  const scan = /^[A-Za-z0-9_-]{32}$/.test(token) ? await deps.storage.scans.findShared(token) : undefined;
  if (!scan) throw notFound();
  // The scan's id, never the token (a bearer secret; the logged path has it redacted).
  recordLogIds(ctx, { scanId: scan.publicId });
  ctx.set('X-Robots-Tag', 'noindex');
  // A share page is for anyone: no navigation of the owner's account, whoever is signed in.
  sendPage(
    ctx,
    reportPage({
      scan,
      chrome: { locale: pageLocale(ctx, deps.config), path: ctx.url },
      imageUrl: imageUrlFor(deps, scan, 'share'),
      lighthouse: await lighthouseLinks(deps.storage, scan, `/share/${token}`),
    }),
  );
}

/** Images of public scans for anyone; of private scans with a valid signature (or to their signed-in owner). */
async function serveImage(deps: ReportPageDeps, ctx: Ctx): Promise<void> {
  const { id = '', name = '' } = ctx.params;
  const scan = await deps.storage.scans.find(id);
  if (!scan) throw notFound();
  const query = ctx.query as Record<string, string | undefined>;
  const allowed =
    scan.isPublic ||
    verifyAssetSignature(deps.config.keys, scan, name, query.expires, query.signature, deps.clock()) ||
    webUser(ctx)?.id === scan.userId;
  const bytes = allowed ? await deps.assets.get(id, name) : null;
  if (!bytes) throw notFound();
  ctx.type = 'image/jpeg';
  ctx.set('Cache-Control', scan.isPublic ? 'public, max-age=86400' : 'private, max-age=3600');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = bytes;
}
