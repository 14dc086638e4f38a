/**
 * The test's own list of how a secret can be written where a page, a URL or a report shows it, made with the
 * platform's encoders (not with core/redaction.ts, which the tests check): every run of 12 characters of the
 * secret (the whole secret when shorter) as itself, percent-encoded in upper and lower case, form-encoded (space
 * as `+`), as `escape()` writes it, HTML-escaped with named, decimal and hex references, and JSON-escaped (also
 * with `<>&'` as `\u00XX`, as Lighthouse's HTML report writes its JSON).
 */
export const MIN_RUN = 12;

const named = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\u00a0/g, '&nbsp;');
const chars = (text: string) => [...text];
const decimal = (text: string) =>
  chars(text)
    .map((c) => `&#${c.codePointAt(0)};`)
    .join('');
const hex = (text: string) =>
  chars(text)
    .map((c) => `&#x${c.codePointAt(0)!.toString(16)};`)
    .join('');
const lowerPercent = (text: string) => text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const form = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);
const json = (text: string) => JSON.stringify(text).slice(1, -1);
const jsonInHtml = (text: string) =>
  json(text).replace(/[<>&']/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** Every character outside printable ASCII as `\uXXXX` (a surrogate pair as two), as ASCII-only JSON writers do. */
const jsonAscii = (text: string) =>
  json(text).replace(/[^ -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const ENCODINGS: Record<string, (text: string) => string> = {
  raw: (t) => t,
  percent: encodeURIComponent,
  percentLower: (t) => lowerPercent(encodeURIComponent(t)),
  uri: encodeURI,
  form,
  formLower: (t) => lowerPercent(form(t)),
  escape: (t) => escape(t),
  htmlNamed: named,
  htmlDecimal: decimal,
  htmlHex: hex,
  json,
  jsonInHtml,
  jsonAscii,
  htmlOfJson: (t) => named(json(t)),
  htmlOfForm: (t) => named(form(t)),
};

/** Every run of MIN_RUN characters of each secret in every encoding, without duplicates. */
export function secretRunForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    const c = chars(secret);
    const length = Math.min(MIN_RUN, c.length);
    for (let i = 0; i + length <= c.length; i++)
      for (const encode of Object.values(ENCODINGS)) forms.add(encode(c.slice(i, i + length).join('')));
  }
  return [...forms];
}

/** The forms found in a text (empty when none is). */
export const formsIn = (text: string, forms: readonly string[]): string[] => forms.filter((f) => text.includes(f));
