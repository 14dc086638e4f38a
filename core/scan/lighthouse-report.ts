import type { ScanCredentials } from './credentials.ts';
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

/** What stands where a credential was. */
export const REDACTED = '[redacted]';

/**
 * Every form a scan's credentials can take in what Lighthouse records (URLs, element text and snippets,
 * headers if any): the password or header value itself, as the page may echo it, percent-encoded as in a
 * URL, and basic auth's `user:password` and its base64 (the Authorization header's token). The user name
 * alone and the header name are not secrets and stay. Longest first, so a longer form is replaced whole.
 */
export function credentialStrings(credentials: ScanCredentials | null): string[] {
  if (!credentials) return [];
  const secrets =
    credentials.type === 'basic'
      ? [
          credentials.password,
          `${credentials.username}:${credentials.password}`,
          Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64'),
        ]
      : [credentials.header_value];
  const forms = secrets.flatMap((secret) => [secret, encodeURIComponent(secret), encodeURI(secret)]);
  return [...new Set(forms)].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

const scrubString = (text: string, secrets: readonly string[]): string =>
  secrets.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(REDACTED) : out), text);

/**
 * A copy of a JSON value with every occurrence of the secrets in its strings (object keys included) replaced
 * by REDACTED. Walks the parsed value, never the JSON text, so the result is valid JSON whatever the secret.
 * A secret of one or two characters matches ordinary text too: the copy then has REDACTED in unrelated
 * places, which costs readability, never a leak.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return scrubString(node, secrets);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(node)) out[scrubString(key, secrets)] = walk(inner);
      return out;
    }
    return node;
  };
  return walk(value) as T;
}
