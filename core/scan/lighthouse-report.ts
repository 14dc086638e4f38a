import type { FormFactor } from './observation.ts';

/**
 * A scan's whole Lighthouse result (LHR) per form factor, as kept: the median run's, scrubbed of the scan's
 * credentials, gzip-compressed JSON. The runner makes it (activities/lighthouse/report.ts), the scan activity
 * stores it (db/store/lighthouse-reports.ts), the API and the report pages hand it out, the retention sweep
 * deletes it after the owner's plan's `lighthouseReportDays`.
 */
export interface LighthouseReport {
  formFactor: FormFactor;
  /** The LHR as gzip-compressed JSON (RFC 1952), as stored and sent to clients that accept gzip. */
  gzip: Buffer;
  /** Bytes of the JSON before compression. */
  jsonBytes: number;
}
