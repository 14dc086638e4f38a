import { isoTimestamp } from '../../core/clock.ts';
import { scanReportUrl, scanShareUrl } from '../../core/links.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { scanFailureView } from '../../core/i18n/failures.ts';
import { localiseFinding } from '../../core/i18n/findings.ts';
import { summarise } from '../../core/i18n/summaries.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { notApplicableCategories } from '../../core/scan/result.ts';
import type { Finding } from '../../core/scoring/types.ts';
import { assetUrl } from '../../services/assets.ts';
import type { Keyring } from '../../core/keys.ts';
import { scanLighthouseView } from './scan-lighthouse.ts';

export interface ViewContext {
  baseUrl: string;
  keys: Keyring;
  locale: Locale;
  now: Date;
}

export const reportUrl = (baseUrl: string, scan: Scan): string => scanReportUrl(baseUrl, scan.publicId);
export const shareUrl = (baseUrl: string, scan: Scan): string | null =>
  scan.shareEnabled && scan.shareToken ? scanShareUrl(baseUrl, scan.shareToken) : null;

/** POST /scans response (and a target's run now): the spec's fields, then the extension `finished_at`. */
export function creationView(scan: Scan, cached: boolean) {
  return {
    id: scan.publicId,
    status: scan.status,
    url: scan.url,
    cached,
    auth_type: scan.authType,
    finished_at: scan.finishedAt ? isoTimestamp(scan.finishedAt) : null,
  };
}

/** Queued and running scans show only these fields (the spec's running shape). */
function runningView(scan: Scan, ctx: ViewContext) {
  return {
    public_id: scan.publicId,
    report_url: reportUrl(ctx.baseUrl, scan),
    status: scan.status,
    submitted_url: scan.url,
    region: scan.region,
    auth_type: scan.authType,
  };
}

function commonEnded(scan: Scan, ctx: ViewContext) {
  return {
    ...runningView(scan, ctx),
    is_public: scan.isPublic,
    share_enabled: scan.shareEnabled,
    share_url: shareUrl(ctx.baseUrl, scan),
    requested_at: isoTimestamp(scan.requestedAt),
    ...(scan.finishedAt ? { finished_at: isoTimestamp(scan.finishedAt) } : {}),
    target_id: scan.targetId,
    trigger: scan.trigger,
  };
}

/** The full result of a finished scan, localised, with image URLs the caller may load. */
export function resultView(scan: Scan, ctx: ViewContext) {
  const r = scan.result!;
  const url = (name: string) => assetUrl(ctx.baseUrl, ctx.keys, scan, name, ctx.now, 'owner');
  const perFactor = <T>(fn: (f: FormFactor) => T) =>
    Object.fromEntries(FORM_FACTORS.map((f) => [f, fn(f)])) as Record<FormFactor, T>;
  const summary = summarise(r.scores, r.findings, ctx.locale);
  return {
    final_url: r.finalUrl,
    final_host: r.finalHost,
    http_status: r.httpStatus,
    scores: r.scores,
    summary_short: summary.short,
    summary_long: summary.long,
    metrics: { ttfb_ms: r.ttfbMs, ...perFactor((f) => r.metrics[f]) },
    screenshots: {
      desktop_url: r.screenshots.desktop ? url(r.screenshots.desktop) : null,
      mobile_url: r.screenshots.mobile ? url(r.screenshots.mobile) : null,
      filmstrip: perFactor((f) => r.filmstrip[f].map((frame) => url(frame.asset))),
      filmstrip_frames: perFactor((f) =>
        r.filmstrip[f].map((frame) => ({ url: url(frame.asset), ms: frame.ms, event: frame.event })),
      ),
    },
    findings: r.findings.map((finding) => ({ ...localiseFinding(finding, ctx.locale), ...findingEvidence(finding) })),
    ...(r.runs ? { runs: r.runs } : {}),
    ...(r.diagnostics ? { diagnostics: r.diagnostics } : {}),
    ...(r.lighthouse ? { lighthouse: scanLighthouseView(r.lighthouse, ctx.locale) } : {}),
    scoring: { version: r.scoringVersion, not_applicable: notApplicableCategories(r) },
  };
}

/** A finding's extension fields, those it has (results stored before findings had evidence have none). */
function findingEvidence(finding: Finding) {
  const { form_factors, items, savings, values, clues, impact, priority } = finding;
  return {
    ...(form_factors ? { form_factors } : {}),
    ...(items ? { items } : {}),
    ...(savings ? { savings } : {}),
    ...(values ? { values } : {}),
    ...(clues?.length ? { clues: clues.map((clue) => clue.code) } : {}),
    ...(impact ? { impact } : {}),
    ...(priority ? { priority } : {}),
  };
}

/** Why a failed scan failed: a stable code and that code's text in the caller's language (never the run's details). */
const failureView = (scan: Scan, locale: Locale) => scanFailureView(scan.failureCode, scan.failureHttpStatus, locale);

/** GET /scans/{id}: the running shape, the finished shape, or our failed shape (with `error`). */
export function detailView(scan: Scan, ctx: ViewContext) {
  if (scan.status === 'queued' || scan.status === 'running') return runningView(scan, ctx);
  if (scan.status === 'failed') {
    return { ...commonEnded(scan, ctx), error: failureView(scan, ctx.locale) };
  }
  return { ...commonEnded(scan, ctx), result: resultView(scan, ctx) };
}

/** GET /scans items: `result` (only the scores) on finished scans, `finished_at` once ended, `error` on failed ones. */
export function listItemView(scan: Scan, ctx: ViewContext) {
  const base = commonEnded(scan, ctx);
  if (scan.status === 'finished' && scan.result) return { ...base, result: { scores: scan.result.scores } };
  if (scan.status === 'failed') return { ...base, error: failureView(scan, ctx.locale) };
  return base;
}
