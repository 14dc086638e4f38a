import type {
  AuditSummary,
  FormFactorObservation,
  KeptAudit,
  ResponseObservation,
} from '../../core/scan/observation.ts';
import { KEPT_AUDITS, RESPONSE_HEADERS } from '../../core/scan/observation.ts';
import type { DocumentWrite } from '../../core/scan/details.ts';
import { formFactorLighthouse } from './categories.ts';
import { auditEvidence, diagnostics, networkBreakdown, type DetailedAudit, type DetailedResult } from './details.ts';
import type { RequestTiming } from './request-timings.ts';

/** The parts of a Lighthouse result we read; Lighthouse's own types are loose JSON here. */
export interface LighthouseAudit extends DetailedAudit {
  score: number | null;
  numericValue?: number;
  details?: { type?: string; items?: unknown; data?: string; [key: string]: unknown };
}
export interface LighthouseResult {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  mainDocumentUrl?: string;
  runtimeError?: { code: string; message: string };
  environment?: { benchmarkIndex?: number };
  categories: { performance?: { score: number | null } };
  audits: Record<string, LighthouseAudit | undefined>;
  entities?: DetailedResult['entities'];
}

const MAX_ROWS = 25;
const MAX_STRING = 300;

function trimValue(value: unknown): string | number | boolean | null {
  if (typeof value === 'string') return value.slice(0, MAX_STRING);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
}

function summarise(audit: LighthouseAudit | undefined, id: KeptAudit): AuditSummary | undefined {
  if (!audit) return undefined;
  const items = audit.details?.items;
  const rows: AuditSummary['items'] = [];
  const checklist: Record<string, boolean> = {};
  if (Array.isArray(items)) {
    for (const item of items.slice(0, MAX_ROWS)) {
      if (item && typeof item === 'object') {
        rows.push(
          Object.fromEntries(
            Object.entries(item as Record<string, unknown>)
              .filter(([, v]) => typeof v !== 'object' || v === null)
              .map(([k, v]) => [k, trimValue(v)]),
          ),
        );
      }
    }
  } else if (items && typeof items === 'object') {
    for (const [key, entry] of Object.entries(items as Record<string, { value?: unknown }>))
      checklist[key] = entry?.value === true;
  }
  const evidence = auditEvidence(audit, id);
  return {
    score: audit.score,
    numericValue: audit.numericValue ?? null,
    items: rows,
    checklist,
    ...(evidence ? { evidence } : {}),
  };
}

const num = (lhr: LighthouseResult, id: string) => lhr.audits[id]?.numericValue ?? 0;

export function decodeDataUrl(dataUrl: string | undefined): Buffer | null {
  const match = /^data:image\/jpeg;base64,(.+)$/.exec(dataUrl ?? '');
  return match ? Buffer.from(match[1]!, 'base64') : null;
}

/**
 * The form-factor part of the observation; screenshots are named here and written by the caller. `timings`:
 * what the runner read of the requests from the run's protocol log (request-timings.ts), for the waterfall;
 * `documentWrites`: the page's document.write() calls from the run's console messages (document-write.ts), not
 * in the result itself (absent when not read).
 */
export function formFactorObservation(
  lhr: LighthouseResult,
  prefix: string,
  timings: readonly RequestTiming[] = [],
  documentWrites?: DocumentWrite[],
): { observation: FormFactorObservation; images: Array<{ name: string; bytes: Buffer }> } {
  const images: Array<{ name: string; bytes: Buffer }> = [];
  const final = decodeDataUrl(lhr.audits['final-screenshot']?.details?.data);
  if (final) images.push({ name: `${prefix}-final.jpg`, bytes: final });
  const frames = (lhr.audits['screenshot-thumbnails']?.details?.items ?? []) as Array<{ timing: number; data: string }>;
  const filmstrip: FormFactorObservation['filmstrip'] = [];
  frames.forEach((frame, i) => {
    const bytes = decodeDataUrl(frame.data);
    if (!bytes) return;
    const name = `${prefix}-frame-${i}.jpg`;
    images.push({ name, bytes });
    filmstrip.push({ asset: name, ms: frame.timing });
  });
  const metricsItem =
    ((lhr.audits.metrics?.details?.items ?? []) as Array<Record<string, number | undefined>>)[0] ?? {};
  const audits: FormFactorObservation['audits'] = {};
  for (const id of KEPT_AUDITS) {
    const summary = summarise(lhr.audits[id], id);
    if (summary) audits[id] = summary;
  }
  const requests = (lhr.audits['network-requests']?.details?.items ?? []) as unknown[];
  return {
    images,
    observation: {
      performanceScore: lhr.categories.performance?.score ?? null,
      metrics: {
        fcpMs: num(lhr, 'first-contentful-paint'),
        lcpMs: num(lhr, 'largest-contentful-paint'),
        cls: num(lhr, 'cumulative-layout-shift'),
        tbtMs: num(lhr, 'total-blocking-time'),
        speedIndexMs: num(lhr, 'speed-index'),
        interactiveMs: num(lhr, 'interactive'),
      },
      observed: {
        fcpMs: metricsItem.observedFirstContentfulPaint ?? null,
        lcpMs: metricsItem.observedLargestContentfulPaint ?? null,
      },
      requestCount: requests.length,
      totalBytes: num(lhr, 'total-byte-weight'),
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
      audits,
      // Without Lighthouse's final screenshot, the last filmstrip frame is the page as it was last seen.
      screenshot: final ? `${prefix}-final.jpg` : (filmstrip.at(-1)?.asset ?? null),
      filmstrip,
      diagnostics: diagnostics(lhr),
      network: networkBreakdown(lhr, timings),
      lighthouse: formFactorLighthouse(lhr),
      ...(documentWrites ? { documentWrites } : {}),
    },
  };
}

interface NetworkRow {
  url: string;
  statusCode: number;
  mimeType?: string;
  resourceType?: string;
  protocol?: string;
  transferSize?: number;
  resourceSize?: number;
}

/** Lighthouse's request list joined with the response headers captured over CDP (first response per URL). */
export function responseObservations(
  lhr: LighthouseResult,
  headersByUrl: Map<string, Record<string, string>>,
): ResponseObservation[] {
  const rows = (lhr.audits['network-requests']?.details?.items ?? []) as NetworkRow[];
  return rows.slice(0, 400).map((row) => {
    const all = headersByUrl.get(row.url) ?? {};
    const headers: Record<string, string> = {};
    for (const name of RESPONSE_HEADERS) if (all[name] !== undefined) headers[name] = all[name]!.slice(0, 500);
    return {
      url: row.url.slice(0, 2048),
      status: row.statusCode,
      mimeType: row.mimeType ?? '',
      resourceType: row.resourceType ?? 'Other',
      protocol: row.protocol ?? '',
      transferBytes: row.transferSize ?? 0,
      resourceBytes: row.resourceSize ?? 0,
      headers,
    };
  });
}
