import { isIP } from 'node:net';

/** An incoming-webhook URL is at most this long (Slack's and Teams' are about 80 to 500 characters). */
export const MAX_DESTINATION_URL_LENGTH = 2000;
/** Destinations per account (account-wide and per-target together). */
export const MAX_DESTINATIONS_PER_ACCOUNT = 20;

export type DestinationUrlProblem = 'invalid' | 'not_https' | 'credentials' | 'too_long';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * The form's rule for a Slack or Teams webhook URL: an absolute https URL without credentials, at most
 * MAX_DESTINATION_URL_LENGTH characters. http only to a loopback host, and only when loopback callbacks are
 * allowed (CALLBACKS_ALLOW_LOOPBACK, set by the tests). The host is not pinned to Slack's or Microsoft's
 * (Teams' Workflows URLs live on several Power Automate hosts); the outbound address rule (core/outbound.ts)
 * is applied to it at save and at every send.
 */
export function destinationUrlProblem(raw: string, allowLoopback: boolean): DestinationUrlProblem | null {
  if (raw.length > MAX_DESTINATION_URL_LENGTH) return 'too_long';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not_https';
  if (!url.hostname) return 'invalid';
  if (url.username || url.password) return 'credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
  if (url.protocol === 'http:' && !(allowLoopback && loopback)) return 'not_https';
  return null;
}

/**
 * What the settings page shows of a stored URL, which is a credential: the host and the last four characters
 * (enough to tell two apart), e.g. `hooks.slack.com/…x7Kq`.
 */
export function destinationUrlHint(raw: string): string {
  const url = new URL(raw);
  const rest = `${url.pathname}${url.search}`;
  return `${url.host}/…${rest.length > 12 ? rest.slice(-4) : ''}`;
}

/**
 * How a chat service's answer ends an attempt. Slack answers 200 `ok`; its errors (`invalid_payload` 400,
 * `no_service` 404, `channel_is_archived` 410, `action_prohibited` 403) do not heal by retrying, nor do Teams'
 * 4xx: every 4xx except 408 and 429 ends the delivery as failed. 408, 429, 5xx, a timeout or a connection
 * error go on with the retry schedule (a Retry-After followed).
 */
export function chatAnswer(responseCode: number | null): 'succeeded' | 'retry' | 'failed' {
  if (responseCode !== null && responseCode >= 200 && responseCode < 300) return 'succeeded';
  if (
    responseCode !== null &&
    responseCode >= 400 &&
    responseCode < 500 &&
    responseCode !== 408 &&
    responseCode !== 429
  )
    return 'failed';
  return 'retry';
}
