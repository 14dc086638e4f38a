import { REDACTED, scrubSecrets } from '../scan/lighthouse-report.ts';
import type { FlowSecretValue } from './flow.ts';

export { REDACTED };

/**
 * Every string a flow run hands out (its messages, the outcome, error texts, image names, stderr) goes
 * through this: each occurrence of a secret's value, in the forms a page or a URL may show it (as typed,
 * percent-encoded, HTML-escaped), replaced by REDACTED. `typed` adds what was typed that is not a stored
 * value (a TOTP seed's codes). Walks parsed values, so JSON stays valid; a string comes back a string.
 */
export function scrubFlowSecrets<T>(
  value: T,
  secrets: Record<string, FlowSecretValue>,
  typed: readonly string[] = [],
): T {
  return scrubSecrets(value, secretForms([...Object.values(secrets).map((s) => s.value), ...typed]));
}

const htmlEscaped = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function secretForms(values: readonly string[]): string[] {
  const forms = values.flatMap((v) => [
    v,
    encodeURIComponent(v),
    encodeURIComponent(v).replace(/%20/g, '+'), // a form's urlencoded body or GET query
    encodeURI(v),
    htmlEscaped(v),
  ]);
  // Longest first, so a longer form is replaced whole.
  return [...new Set(forms)].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}
