import type { FailureCode } from '../scan/failures.ts';
import type { Locale } from './locale.ts';

/**
 * What users are told about a failed scan: the code's own text, in their language. Nothing from the run
 * itself (runner output, resolved addresses) ever gets here; the one detail shown is the main document's
 * HTTP status of an `http_error`. A unit test checks that every code has a text in every language.
 */
export const FAILURE_TEXTS: Record<Locale, Record<FailureCode, string>> = {
  en: {
    dns_failed: 'The host name could not be resolved.',
    connection_failed: 'The server refused or dropped the connection.',
    http_error: 'The page answered with an HTTP error status.',
    timeout: 'The page did not finish loading in time.',
    no_paint: 'The page loaded but painted no content.',
    blocked_address: 'The host resolves to a private or special-use address, which scans may not reach.',
    not_started: 'The scan never started, so nothing was measured. It can be run again.',
    scan_error: 'The scan failed on our side after several attempts.',
  },
  de: {
    dns_failed: 'Der Hostname konnte nicht aufgelöst werden.',
    connection_failed: 'Der Server hat die Verbindung abgelehnt oder abgebrochen.',
    http_error: 'Die Seite antwortete mit einem HTTP-Fehlerstatus.',
    timeout: 'Die Seite wurde nicht rechtzeitig fertig geladen.',
    no_paint: 'Die Seite wurde geladen, zeigte aber keinen Inhalt.',
    blocked_address: 'Der Host löst zu einer privaten oder reservierten Adresse auf, die Scans nicht erreichen dürfen.',
    not_started: 'Der Scan wurde nie gestartet, es wurde nichts gemessen. Er kann erneut gestartet werden.',
    scan_error: 'Der Scan ist nach mehreren Versuchen auf unserer Seite fehlgeschlagen.',
  },
};

const HTTP_STATUS_TEXTS: Record<Locale, (status: number) => string> = {
  en: (status) => `The page answered with HTTP ${status}.`,
  de: (status) => `Die Seite antwortete mit HTTP ${status}.`,
};

export function failureMessage(code: FailureCode, locale: Locale, httpStatus: number | null = null): string {
  if (code === 'http_error' && httpStatus !== null) return HTTP_STATUS_TEXTS[locale](httpStatus);
  return FAILURE_TEXTS[locale][code];
}

/** A failed scan as users see it, in the API and on the report page: its code (none recorded reads as `scan_error`) and that code's text. */
export function scanFailureView(
  code: FailureCode | null,
  httpStatus: number | null,
  locale: Locale,
): { code: FailureCode; message: string } {
  const known = code ?? 'scan_error';
  return { code: known, message: failureMessage(known, locale, httpStatus) };
}
