import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Clock } from '../../core/clock.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { RumQueries } from '../../core/rum/queries.ts';
import { scanShareUrl } from '../../core/links.ts';
import { cheapestPlanWith, hasFeature, planFor } from '../../core/plans.ts';
import { shareRefusal, type Scan } from '../../core/scan/scan.ts';
import type { User } from '../../core/user.ts';
import type { Storage } from '../../db/store/index.ts';
import {
  DEPENDENCY_RETRY_AFTER_S,
  forbidden,
  notFound,
  serviceUnavailable,
  validationFailed,
} from '../../http/errors.ts';
import { recordLogIds } from '../../http/middleware.ts';
import type { Config } from '../../infra/config.ts';
import {
  AssetStoreUnavailable,
  assetUrl,
  verifyAssetSignature,
  type AssetStore,
  type ImageAudience,
} from '../../services/assets.ts';
import { fieldDataForScan } from '../../services/field-data.ts';
import { compareWithPrevious, type ComparisonViewer } from '../../services/scan-comparison.ts';
import { setSharing } from '../../services/scans.ts';
import { chromeFor } from '../chrome.ts';
import { sendPage } from '../error-page.ts';
import { html, type SafeHtml } from '../html.ts';
import type { Chrome } from '../layout.ts';
import { copyScriptTag } from '../live/sites-page.ts';
import { pageLocale } from '../locale.ts';
import { readForm, webUser } from '../session.ts';
import { scanText } from './labels.ts';
import { reportPage } from './report-page.ts';
import { previousSection } from './report-previous.ts';
import { rescanPart } from './report-rescan.ts';
import { SHARE_NOTICES, sharePart, type ShareNotice } from './report-share.ts';
import { lighthouseLinks, mountLighthouseReportPages } from './report-lighthouse.ts';

export interface ReportPageDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  assets: AssetStore;
  /** The live-data queries, for the owner's field data beside the lab values. */
  rum: RumQueries;
}

type Ctx = RouterContext;

/** A scan's report for its owner (or anyone, if public), its share page, and its images. */
export function mountReportPages(router: Router, deps: ReportPageDeps): void {
  const on = (handler: (deps: ReportPageDeps, ctx: Ctx) => Promise<void>) => (ctx: Ctx) => handler(deps, ctx);
  router.get('/reports/:id', on(showReport));
  router.post(
    '/reports/:id/share/enable',
    on((deps, ctx) => changeSharing(deps, ctx, true)),
  );
  router.post(
    '/reports/:id/share/disable',
    on((deps, ctx) => changeSharing(deps, ctx, false)),
  );
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
  // Field data is the owner's own (their live-data sites): never on a public report seen by someone else.
  const field =
    user && user.id === scan.userId && scan.result
      ? await fieldDataForScan(
          { rumSites: deps.storage.rumSites, rum: deps.rum, clock: deps.clock },
          { id: user.id, plan: planFor(user.plan) },
          { url: scan.url, result: scan.result },
        )
      : undefined;
  const chrome = chromeFor(deps, ctx, 'scans');
  const owned = user && user.id === scan.userId ? ownerParts(deps, ctx, scan, user, chrome) : undefined;
  sendPage(
    ctx,
    reportPage({
      scan,
      chrome: owned ? { ...chrome, head: owned.head } : chrome,
      imageUrl: imageUrlFor(deps, scan, 'owner'),
      field,
      ownerParts: owned?.parts,
      lighthouse: await lighthouseLinks(deps.storage, scan, `/reports/${scan.publicId}`),
      previous: await previousPart(deps, scan, user && user.id === scan.userId ? 'owner' : 'public', chrome.locale),
    }),
  );
}

/** The comparison with the previous scan at the top of a finished scan's report, when the viewer may see it. */
async function previousPart(
  deps: ReportPageDeps,
  scan: Scan,
  viewer: ComparisonViewer,
  locale: Locale,
): Promise<SafeHtml | undefined> {
  const comparison = await compareWithPrevious(deps.storage.scans, scan, viewer);
  return comparison
    ? previousSection({
        comparison,
        scan: { publicId: scan.publicId, scoringVersion: scan.result!.scoringVersion },
        viewer,
        locale,
      })
    : undefined;
}

/**
 * The owner's parts of an ended scan's report: "Scan again" (with the cached notice when the report is the
 * reused answer of POST /scans, `?cached=1`), and for a finished scan "Share".
 */
function ownerParts(
  deps: ReportPageDeps,
  ctx: Ctx,
  scan: Scan,
  user: User,
  chrome: Chrome,
): { parts: SafeHtml; head?: SafeHtml } | undefined {
  if (scan.status !== 'finished' && scan.status !== 'failed') return undefined;
  const plan = planFor(user.plan);
  const csrf = chrome.csrf!;
  const cached = ctx.query.cached === '1' && scan.status === 'finished' && scan.finishedAt;
  const rescan = rescanPart({
    scan,
    locale: chrome.locale,
    csrf,
    maxRuns: plan.maxRunsPerScan,
    cachedAgeMs: cached ? Math.max(0, deps.clock().getTime() - scan.finishedAt!.getTime()) : undefined,
  });
  if (scan.status === 'failed') return { parts: rescan };
  const notice = ctx.query.notice;
  const allowed = hasFeature(plan, 'share_links');
  const share = sharePart({
    scan,
    locale: chrome.locale,
    csrf,
    shareUrl: scan.shareEnabled && scan.shareToken ? scanShareUrl(deps.config.baseUrl, scan.shareToken) : null,
    plan: { allowed, label: plan.label, needed: cheapestPlanWith('share_links').label },
    notice: (SHARE_NOTICES as readonly unknown[]).includes(notice) ? (notice as ShareNotice) : undefined,
  });
  return { parts: html`${rescan}${share}`, head: allowed && scan.shareEnabled ? copyScriptTag() : undefined };
}

/** The share part's buttons: the API's share enable/disable (the same service and plan rule) as forms. */
async function changeSharing(deps: ReportPageDeps, ctx: Ctx, enabled: boolean): Promise<void> {
  const user = webUser(ctx);
  if (!user) return ctx.redirect(`/login?next=${encodeURIComponent(`/reports/${ctx.params.id ?? ''}`)}`);
  await readForm(ctx, deps.config);
  const scan = await deps.storage.scans.findOwned(user.id, ctx.params.id ?? '');
  if (!scan) throw notFound();
  recordLogIds(ctx, { scanId: scan.publicId });
  const plan = planFor(user.plan);
  if (enabled && !hasFeature(plan, 'share_links'))
    throw forbidden(
      scanText(pageLocale(ctx, deps.config)).shareNeedsPlan(cheapestPlanWith('share_links').label, plan.label),
    );
  const refusal = enabled ? shareRefusal(scan) : null;
  if (refusal) throw validationFailed({ scan: [scanText(pageLocale(ctx, deps.config)).shareRefused[refusal]] });
  await setSharing(deps.storage.scans, scan, enabled);
  ctx.status = 303;
  ctx.redirect(`/reports/${scan.publicId}?notice=${enabled ? 'shared' : 'unshared'}#share`);
}

async function showSharedReport(deps: ReportPageDeps, ctx: Ctx): Promise<void> {
  const token = ctx.params.token ?? '';
  const scan = /^[A-Za-z0-9_-]{32}$/.test(token) ? await deps.storage.scans.findShared(token) : undefined;
  if (!scan) throw notFound();
  // The scan's id, never the token (a bearer secret; the logged path has it redacted).
  recordLogIds(ctx, { scanId: scan.publicId });
  ctx.set('X-Robots-Tag', 'noindex');
  // A share page is for anyone: no navigation of the owner's account, whoever is signed in.
  const locale = pageLocale(ctx, deps.config);
  sendPage(
    ctx,
    reportPage({
      scan,
      chrome: { locale, path: ctx.url },
      imageUrl: imageUrlFor(deps, scan, 'share'),
      lighthouse: await lighthouseLinks(deps.storage, scan, `/share/${token}`),
      previous: await previousPart(deps, scan, 'share', locale),
    }),
  );
}

/**
 * Images of public scans for anyone; of private scans with a valid signature (or to their signed-in owner).
 * Read through this process from whichever store holds them (proxied, never a redirect to the bucket), so
 * these rules, the signatures' expiry and the share switch hold for every backend: docs/assets.md.
 */
async function serveImage(deps: ReportPageDeps, ctx: Ctx): Promise<void> {
  const { id = '', name = '' } = ctx.params;
  const scan = (await deps.storage.scans.find(id)) ?? (await flowRunImages(deps, id));
  if (!scan) throw notFound();
  const query = ctx.query as Record<string, string | undefined>;
  const allowed =
    scan.isPublic ||
    verifyAssetSignature(deps.config.keys, scan, name, query.expires, query.signature, deps.clock()) ||
    webUser(ctx)?.id === scan.userId;
  const bytes = allowed ? await readImage(deps.assets, id, name) : null;
  if (!bytes) throw notFound();
  ctx.type = 'image/jpeg';
  ctx.set('Cache-Control', scan.isPublic ? 'public, max-age=86400' : 'private, max-age=3600');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = bytes;
}
/** A user-flow run's images sit under the run's id: always private, signed for the owner (api/views/flows.ts). */
async function flowRunImages(
  deps: ReportPageDeps,
  id: string,
): Promise<Pick<Scan, 'publicId' | 'isPublic' | 'shareEnabled' | 'shareToken' | 'userId'> | undefined> {
  const run = await deps.storage.flows.findRun(id);
  return run && { publicId: run.publicId, isPublic: false, shareEnabled: false, shareToken: null, userId: run.userId };
}

/** A store that does not answer is a 503 with Retry-After (the cause goes to the log), not a 500. */
async function readImage(assets: AssetStore, id: string, name: string): Promise<Buffer | null> {
  try {
    return await assets.get(id, name);
  } catch (error) {
    if (error instanceof AssetStoreUnavailable)
      throw serviceUnavailable('Images are unavailable for now.', DEPENDENCY_RETRY_AFTER_S, error);
    throw error;
  }
}
