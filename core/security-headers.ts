/**
 * HTTPS only from now on for a year, subdomains included. Sent only when the service's public URL is https:
 * over plain http browsers ignore it anyway, and a local http deployment must not tell a browser to insist
 * on https for its host (127.0.0.1, localhost) for a year.
 */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers every response of a public-facing process carries (the API's app, the ingest), whatever its
 * route or status: `nosniff` so that no body is ever read as another type than it says, and HSTS when the
 * process's public URL (BASE_URL, INGEST_URL) is https. Pages add their own Content-Security-Policy.
 */
export function securityHeaders(publicUrl: string): Record<string, string> {
  const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
  if (new URL(publicUrl).protocol === 'https:') headers['Strict-Transport-Security'] = HSTS;
  return headers;
}
