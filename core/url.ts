/**
 * Scan URL normalisation: the one rule for what a submitted URL means. The API stores and returns the
 * normalised form; the cache key is built on it.
 *
 *  - scheme must be http or https (lower-cased); no user name or password
 *  - host lower-cased, IDN converted to punycode, one trailing dot dropped; must be a domain name with a dot,
 *    or an IP address (single-label names such as `intranet` are refused)
 *  - default ports (80 for http, 443 for https) dropped
 *  - empty path becomes `/`; the path is otherwise kept as sent (paths are case-sensitive, and `/a` and
 *    `/a/` can be different pages); dot segments are resolved and unsafe characters percent-encoded
 *  - the query string is kept in order (order can matter to the server); a bare `?` is dropped
 *  - the fragment is dropped (it never reaches the server)
 *  - at most 2048 characters after normalisation
 */

export const MAX_URL_LENGTH = 2048;

export type NormalisedUrl = { ok: true; url: string; host: string } | { ok: false; error: string };

export function normaliseScanUrl(input: string): NormalisedUrl {
  const text = input.trim();
  if (text === '') return { ok: false, error: 'The url field is required.' };
  if (text.length > MAX_URL_LENGTH * 3)
    return { ok: false, error: `The url may not be greater than ${MAX_URL_LENGTH} characters.` };
  if (!/^https?:\/\//i.test(text)) return { ok: false, error: 'The url must start with http:// or https://.' };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, error: 'The url must be a valid URL.' };
  }
  if (parsed.username || parsed.password)
    return { ok: false, error: 'The url must not contain a user name or password; use the auth object instead.' };
  const host = parsed.hostname.replace(/\.$/, '');
  if (host === '') return { ok: false, error: 'The url must have a host.' };
  const isIp = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  if (!isIp && !host.includes('.'))
    return { ok: false, error: 'The url host must be a domain name (with a dot) or an IP address.' };
  if (!isIp && !/^[a-z0-9.-]+$/.test(host)) return { ok: false, error: 'The url host is not a valid domain name.' };
  if (
    !isIp &&
    host.split('.').some((label) => label === '' || label.length > 63 || label.startsWith('-') || label.endsWith('-'))
  ) {
    return { ok: false, error: 'The url host is not a valid domain name.' };
  }
  parsed.hostname = host;
  parsed.hash = '';
  if (parsed.search === '') parsed.search = ''; // a bare '?' reads as empty but prints; assigning clears it
  const url = parsed.toString();
  if (url.length > MAX_URL_LENGTH)
    return { ok: false, error: `The url may not be greater than ${MAX_URL_LENGTH} characters.` };
  return { ok: true, url, host: parsed.hostname };
}

/**
 * What a web form's address means before the rule above: one typed without a scheme (`example.com/page`) is
 * read as https. The API keeps asking for the scheme.
 */
export function withDefaultScheme(input: string): string {
  const text = input.trim();
  if (text === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  return `https://${text.replace(/^\/+/, '')}`;
}

/**
 * A page named in words (alert texts, e-mails): its host and path, with the query when there is one; a site's
 * home page (`/`) is its host alone. Falls back to `host` when the URL does not parse.
 */
export function pageName(url: string, host: string): string {
  try {
    const parsed = new URL(url);
    const rest = `${parsed.pathname}${parsed.search}`;
    return rest === '/' ? parsed.hostname : `${parsed.hostname}${rest}`;
  } catch {
    return host;
  }
}
