import type { DeliveryEvent, WebhookPayload } from './events.ts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event for one endpoint (the outbox row) with the spec's per-delivery fields. */
export interface WebhookDelivery {
  id: number;
  /** `webhook-id`: the same for every attempt and resend. */
  messageId: string;
  userId: number;
  event: DeliveryEvent;
  payload: WebhookPayload;
  status: DeliveryStatus;
  webhookAttempts: number;
  webhookResponseCode: number | null;
  webhookLastError: string | null;
  workflowStartedAt: Date | null;
  createdAt: Date;
  completedAt: Date | null;
  /** Set for a Slack or Teams destination's delivery (services/alert-destinations.ts); null for the signed webhook. */
  destinationId?: number | null;
}

/** What starting a delivery's workflow needs of it: its id, and its owner and event for the search attributes. */
export type DeliveryRef = Pick<WebhookDelivery, 'id' | 'userId' | 'event'>;

export interface WebhookAttempt {
  id: number;
  deliveryId: number;
  attemptedAt: Date;
  durationMs: number;
  responseCode: number | null;
  /** The first 1 KB of the response body. */
  responseBody: string | null;
  error: string | null;
}

/** `key`: the attempt's own, unique (recording it again is a no-op). */
export type NewWebhookAttempt = Omit<WebhookAttempt, 'id'> & { key: string };

/** What one attempt came to: `retry` while the schedule goes on; anything else ends the delivery. */
export type AttemptOutcomeKind = 'succeeded' | 'retry' | 'failed' | 'gone' | 'not_sent';

/** What happened before the delivery's workflow started (the direct first attempt, services/webhook-direct.ts). */
export interface PriorAttempts {
  attempts: number;
  /** The last attempt's outcome: an ending one is the workflow's result at once. */
  outcome: AttemptOutcomeKind;
  /** The last attempt's Retry-After. */
  retryAfterMs: number | null;
}

/** The delivery workflow's input (workflows/webhook-delivery.ts; started in infra/temporal-client.ts). */
export interface WebhookDeliveryInput {
  deliveryId: number;
  /** One attempt only (a resend or replay from the settings page). */
  single?: boolean;
  /** The waits between attempts; the documented schedule unless a test passes a shorter one. */
  schedule?: number[];
  /** Attempts made before the workflow started. */
  after?: PriorAttempts;
}

/** Kept of a response body: enough to tell an error page from another. */
export const RESPONSE_BODY_LIMIT = 1024;

/**
 * Text as Postgres can store it: NUL (which a `text` column refuses) becomes U+FFFD, like every invalid byte
 * of a reply. JavaScript strings never hold invalid UTF-8; a lone surrogate is sent as U+FFFD by the driver.
 * The one rule for what a receiver's answer (and anything derived from it) may put into the attempt log.
 */
export const storableText = (text: string): string => text.replaceAll('\0', '\uFFFD');

/**
 * The stored excerpt of a reply body: its first RESPONSE_BODY_LIMIT bytes read as UTF-8, every invalid
 * sequence replaced by U+FFFD (an overlong NUL too), a character cut at the limit dropped, then storableText.
 */
export function replyExcerpt(bytes: Uint8Array): string {
  // `stream`: an incomplete sequence at the end (the limit cut a character) is held back rather than replaced.
  return storableText(
    new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes.subarray(0, RESPONSE_BODY_LIMIT), {
      stream: true,
    }),
  );
}

/**
 * After a request was sent, recording its attempt is retried in the process (the response held in memory),
 * never by sending again: waits between tries, each try given up after RECORD_TRY_TIMEOUT_MS (recording is
 * idempotent, so a try that commits late changes nothing), no new try after RECORD_BUDGET_MS. Together with
 * the 15 s request this stays well inside the attempt activity's 1-minute timeout.
 */
export const RECORD_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000];
export const RECORD_TRY_TIMEOUT_MS = 5000;
export const RECORD_BUDGET_MS = 25_000;

/**
 * When the attempts after the first are made, counted from the failure before (Svix's schedule: immediately,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; about 28 hours in all).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];
/** A Retry-After (429/503) is followed when it asks for longer than the schedule, up to this. */
export const MAX_RETRY_AFTER_MS = 36_000_000;

/** The wait before the next attempt, or null when the schedule is over. `retryAfterMs`: the receiver's wish, if any. */
export function nextDelayMs(
  failedAttempts: number,
  retryAfterMs: number | null,
  schedule: readonly number[] = RETRY_DELAYS_MS,
): number | null {
  const scheduled = schedule[failedAttempts - 1];
  if (scheduled === undefined) return null;
  if (retryAfterMs === null) return scheduled;
  return Math.max(scheduled, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}
