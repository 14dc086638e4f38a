import { PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { PLAN_KEYS, PLANS } from '../../core/plans.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { LighthouseReportStore } from '../../db/store/lighthouse-reports.ts';
import type { ScanStore } from '../../db/store/scans.ts';
import { notFound } from '../../http/errors.ts';
import { lighthouseFileName, lighthouseJson } from '../../services/lighthouse-reports.ts';
import type { ApiContext, ApiRoute, AnyRoute, RouteInput } from '../route.ts';
import type { JsonSchema } from '../validation.ts';

export interface ScanLighthouseRouteDeps {
  scans: ScanStore;
  lighthouseReports: LighthouseReportStore;
}

/** Lighthouse's own result object (LHR), as Lighthouse wrote it; only the fields every result has are named. */
const lighthouseResultSchema: JsonSchema = {
  type: 'object',
  required: ['lighthouseVersion', 'requestedUrl', 'finalDisplayedUrl', 'fetchTime', 'audits', 'categories'],
  properties: {
    lighthouseVersion: { type: 'string' },
    requestedUrl: { type: 'string' },
    mainDocumentUrl: { type: 'string' },
    finalDisplayedUrl: { type: 'string' },
    fetchTime: { type: 'string' },
    configSettings: { type: 'object', properties: { formFactor: { type: 'string', enum: [...FORM_FACTORS] } } },
    audits: { type: 'object' },
    categories: { type: 'object' },
  },
};

/** GET /scans/{id}/lighthouse/{form_factor}: the stored whole Lighthouse result of a finished scan, as a file. */
export function scanLighthouseRoutes(deps: ScanLighthouseRouteDeps): AnyRoute[] {
  const download: ApiRoute = {
    method: 'get',
    path: '/scans/:id/lighthouse/:form_factor',
    tag: 'Scans',
    extension: true,
    summary: "The scan's whole Lighthouse result (LHR JSON) of one form factor, as a download.",
    description: `Lighthouse's own JSON result of the run the scan's values come from (the median run when the scan has several), as Lighthouse wrote it, not wrapped in \`data\`, with \`Content-Disposition: attachment\`; it opens in Lighthouse's viewer. Credentials of an authenticated scan are replaced by \`[redacted]\` wherever Lighthouse recorded them (URLs, element text). Kept for the owner's plan's retention, in days after the scan: ${PLAN_KEYS.map((key) => `${PLANS[key].label} ${PLANS[key].lighthouseReportDays}`).join(', ')}. Sent gzip-compressed to clients that accept it. 404 for another user's or an unknown scan, a scan that has not finished or has failed, and a result past its retention.`,
    params: {
      id: { pattern: PUBLIC_ID_PATTERN, description: 'The scan public_id.', logAs: 'scanId' },
      form_factor: { pattern: `^(${FORM_FACTORS.join('|')})$`, description: '`desktop` or `mobile`.' },
    },
    responses: { 200: { description: "Lighthouse's result object.", schema: lighthouseResultSchema } },
    handle: (ctx, input) => downloadLighthouseResult(deps, ctx, input),
  };
  return [download];
}

async function downloadLighthouseResult(
  deps: ScanLighthouseRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const scan = await deps.scans.findOwned(ctx.state.user.id, params.id!);
  if (!scan) throw notFound();
  const formFactor = params.form_factor as FormFactor;
  const report = await deps.lighthouseReports.find(scan.publicId, formFactor);
  if (!report) throw notFound();
  ctx.set('Content-Disposition', `attachment; filename="${lighthouseFileName(scan, formFactor)}"`);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.vary('Accept-Encoding');
  ctx.type = 'application/json; charset=utf-8';
  // Stored gzip-compressed: sent as it is to every client that takes gzip (a file with no secret of ours in it).
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = report.gzip;
  } else {
    ctx.body = lighthouseJson(report);
  }
}
