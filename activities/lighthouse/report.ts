import { gzipSync } from 'node:zlib';
import type { LighthouseReport } from '../../core/scan/lighthouse-report.ts';
import type { FormFactor } from '../../core/scan/observation.ts';

/**
 * gzip level 6 (zlib's default). Measured on Lighthouse results of a small page (116 KB of JSON): level 9 is
 * 1% smaller, brotli quality 5 8% smaller, brotli 11 20% smaller but takes over a second. gzip is what every
 * HTTP client accepts, so a download is sent as it is stored (docs/scans-and-scoring.md#the-whole-lighthouse-report).
 */
const GZIP_LEVEL = 6;

/**
 * One form factor's whole Lighthouse result as kept, serialised and gzip-compressed. Run in the runner, once per
 * form factor loaded, on the result it has already redacted of the scan's credentials (runner.ts).
 */
export function prepareLighthouseReport(lhr: object, formFactor: FormFactor): LighthouseReport {
  const json = Buffer.from(JSON.stringify(lhr));
  return { formFactor, gzip: gzipSync(json, { level: GZIP_LEVEL }), jsonBytes: json.length };
}
