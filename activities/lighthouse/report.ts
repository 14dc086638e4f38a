import { gzipSync } from 'node:zlib';
import type { ScanCredentials } from '../../core/scan/credentials.ts';
import { credentialStrings, scrubSecrets, type LighthouseReport } from '../../core/scan/lighthouse-report.ts';
import type { FormFactor } from '../../core/scan/observation.ts';

/**
 * gzip level 6 (zlib's default). Measured on Lighthouse results of a small page (116 KB of JSON): level 9 is
 * 1% smaller, brotli quality 5 8% smaller, brotli 11 20% smaller but takes over a second. gzip is what every
 * HTTP client accepts, so a download is sent as it is stored (docs/scans-and-scoring.md#the-whole-lighthouse-report).
 */
const GZIP_LEVEL = 6;

/**
 * One form factor's whole Lighthouse result as kept: the scan's credentials scrubbed from every string
 * (Lighthouse records URLs, element text and snippets, which a page may fill with what it was sent),
 * serialised and gzip-compressed. Run in the runner, once per form factor loaded.
 */
export function prepareLighthouseReport(
  lhr: object,
  formFactor: FormFactor,
  credentials: ScanCredentials | null,
): LighthouseReport {
  const json = Buffer.from(JSON.stringify(scrubSecrets(lhr, credentialStrings(credentials))));
  return { formFactor, gzip: gzipSync(json, { level: GZIP_LEVEL }), jsonBytes: json.length };
}
