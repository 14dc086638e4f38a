/**
 * Lighthouse's own report of a scan, per form factor: the stored result (LHR) as a JSON download and as
 * Lighthouse's HTML report (its own renderer, `lighthouse/report/generator/report-generator.js`), for whoever
 * may see the scan's report (its owner, anyone for a public scan, a share link's holder while sharing is on),
 * and the report page's part that links to them.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { formatDate } from '../../core/i18n/dates.ts';
import { formatBytes, type Locale } from '../../core/i18n/locale.ts';
import { planFor } from '../../core/plans.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import type { Scan } from '../../core/scan/scan.ts';
import type { Storage } from '../../db/store/index.ts';
import { notFound } from '../../http/errors.ts';
import { recordLogIds } from '../../http/middleware.ts';
import {
  lighthouseFileName,
  lighthouseJson,
  lighthouseReportExpiry,
  lighthouseResult,
} from '../../services/lighthouse-reports.ts';
import { html, type SafeHtml } from '../html.ts';
import { webUser } from '../session.ts';
import { lighthouseReportText } from './labels.ts';

type Ctx = RouterContext;

/** What the report page shows of the stored results: where they are and until when they are kept. */
export interface LighthouseLinks {
  /** `/reports/<id>` or `/share/<token>`: the report's own path, which the results' paths extend. */
  base: string;
  reports: Array<{ formFactor: FormFactor; jsonBytes: number; expiresAt: Date }>;
}

/** The scan's stored results for its report page (none for a scan that has not finished). */
export async function lighthouseLinks(
  storage: Pick<Storage, 'lighthouseReports' | 'users'>,
  scan: Scan,
  base: string,
): Promise<LighthouseLinks> {
  if (scan.status !== 'finished') return { base, reports: [] };
  const [entries, owner] = await Promise.all([
    storage.lighthouseReports.list(scan.publicId),
    storage.users.findById(scan.userId),
  ]);
  const plan = planFor(owner?.plan ?? 'free');
  return {
    base,
    reports: entries.map((entry) => ({
      formFactor: entry.formFactor,
      jsonBytes: entry.jsonBytes,
      expiresAt: lighthouseReportExpiry(entry.createdAt, plan),
    })),
  };
}

/** The report page's part: per form factor, the HTML report and the JSON download, and until when they are kept. */
export function lighthouseSection(links: LighthouseLinks | undefined, locale: Locale): SafeHtml {
  if (!links) return html``;
  const t = lighthouseReportText(locale);
  const label = (factor: FormFactor) => t.formFactor[factor];
  if (links.reports.length === 0)
    return html`<section id="lighthouse-report"><h2>${t.title}</h2><p class="note">${t.notKept}</p></section>`;
  const expiresAt = new Date(Math.min(...links.reports.map((r) => r.expiresAt.getTime())));
  return html`<section id="lighthouse-report"><h2>${t.title}</h2><p>${t.intro}</p><ul class="lighthouse-links">${links.reports.map(
    (r) =>
      html`<li><a href="${links.base}/lighthouse/${r.formFactor}" data-lighthouse="${r.formFactor}">${t.view(label(r.formFactor))}</a> · <a href="${links.base}/lighthouse/${r.formFactor}.json" download="${r.formFactor}.lighthouse.json" data-lighthouse-json="${r.formFactor}">${t.download(label(r.formFactor))}</a> <span class="note">${t.size(formatBytes(r.jsonBytes, locale))}</span></li>`,
  )}</ul><p class="note">${t.keptUntil(formatDate(expiresAt, locale))}</p></section>`;
}

export interface LighthousePageDeps {
  storage: Storage;
}

/** `/reports/:id/lighthouse/<form factor>[.json]` and the same under `/share/:token`. */
export function mountLighthouseReportPages(router: Router, deps: LighthousePageDeps): void {
  router.get('/reports/:id/lighthouse/:file', (ctx) => ownerOrPublic(deps, ctx));
  router.get('/share/:token/lighthouse/:file', (ctx) => shared(deps, ctx));
}

const FILE = /^(desktop|mobile)(\.json)?$/;

/** The report page's rule: a public scan for anyone, a private one for its signed-in owner (others: sign-in, or 404). */
async function ownerOrPublic(deps: LighthousePageDeps, ctx: Ctx): Promise<void> {
  const user = webUser(ctx);
  const scan = await deps.storage.scans.find(ctx.params.id ?? '');
  if (scan) recordLogIds(ctx, { scanId: scan.publicId });
  if (!(scan && (scan.isPublic || (user && user.id === scan.userId)))) {
    if (!user) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
    throw notFound();
  }
  await serve(deps, ctx, scan);
}

/** The share page's rule: while sharing is on, whoever holds the link. */
async function shared(deps: LighthousePageDeps, ctx: Ctx): Promise<void> {
  const token = ctx.params.token ?? '';
  const scan = /^[A-Za-z0-9_-]{32}$/.test(token) ? await deps.storage.scans.findShared(token) : undefined;
  if (!scan) throw notFound();
  recordLogIds(ctx, { scanId: scan.publicId });
  ctx.set('X-Robots-Tag', 'noindex');
  await serve(deps, ctx, scan);
}

async function serve(deps: LighthousePageDeps, ctx: Ctx, scan: Scan): Promise<void> {
  const match = FILE.exec(ctx.params.file ?? '');
  if (!match) throw notFound();
  const formFactor = match[1] as FormFactor;
  const report = await deps.storage.lighthouseReports.find(scan.publicId, formFactor);
  if (!report) throw notFound();
  ctx.set('Cache-Control', 'private, no-store');
  // Nothing of the report's path (a share link's token) goes to the sites the report links to.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.vary('Accept-Encoding');
  const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  if (match[2]) {
    ctx.set('Content-Disposition', `attachment; filename="${lighthouseFileName(scan, formFactor)}"`);
    ctx.type = 'application/json; charset=utf-8';
    // No secret of ours and nothing of the request is in it: sent compressed as stored.
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? report.gzip : lighthouseJson(report);
    return;
  }
  const page = await lighthouseHtml(lighthouseResult(report));
  ctx.set('Content-Security-Policy', lighthouseReportCsp(page));
  ctx.type = 'html';
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.body = gzip ? gzipSync(page) : page;
}

let generator: Promise<(lhr: Record<string, unknown>) => string> | null = null;

/** Lighthouse's standalone HTML report of a result (its renderer, loaded on first use: the API process need not load it at start). */
async function lighthouseHtml(lhr: Record<string, unknown>): Promise<string> {
  generator ??= import('lighthouse/report/generator/report-generator.js').then(
    ({ ReportGenerator }) =>
      (result: Record<string, unknown>) =>
        ReportGenerator.generateReportHtml(
          result as unknown as Parameters<typeof ReportGenerator.generateReportHtml>[0],
        ),
  );
  return (await generator)(lhr);
}

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/**
 * The one page of the site with scripts inline: Lighthouse's report carries its renderer and the result in
 * `<script>` elements and styles itself with `<style>` elements it adds. Its policy allows exactly those
 * scripts (by their SHA-256), inline styles and data: images, nothing from anywhere else, and sandboxes the
 * page: it runs in an origin of its own, so its scripts reach no cookie, storage or same-origin request of
 * the site. Popups (its links to Lighthouse's documentation, its viewer and treemap, on a click) and
 * downloads (its own "save as") stay possible. Every other page keeps the site's policy (web/error-page.ts).
 */
export function lighthouseReportCsp(page: string): string {
  const hashes = [...page.matchAll(INLINE_SCRIPT)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${hashes.join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "connect-src 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    'sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-downloads',
  ].join('; ');
}
