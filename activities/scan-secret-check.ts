import { gunzipSync } from 'node:zlib';
import { containsSecret } from '../core/redaction.ts';
import { credentialSecrets, type ScanCredentials } from '../core/scan/credentials.ts';
import type { LighthouseReport } from '../core/scan/lighthouse-report.ts';
import type { ScanResultRecord } from '../core/scan/result.ts';
import type { SecretCheck } from '../core/scan/scan.ts';

/**
 * Looks for an authenticated scan's credentials, by the redaction rule, in exactly what is about to be stored of
 * it (the result and the whole Lighthouse results, which the runner redacted): the stored answer to "may this
 * be shared" (services/scans.ts), decided while the worker still has the credentials, which are not kept.
 */
export function checkStoredForCredentials(
  credentials: ScanCredentials,
  result: ScanResultRecord,
  reports: readonly LighthouseReport[],
): SecretCheck {
  const secrets = credentialSecrets(credentials);
  if (containsSecret(result, secrets)) return 'found';
  const found = reports.some((report) => containsSecret(JSON.parse(gunzipSync(report.gzip).toString()), secrets));
  return found ? 'found' : 'clean';
}
