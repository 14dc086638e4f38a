import { WEBHOOK_EVENTS as EVENT_NAMES, type WebhookEvent } from './events.ts';

/** A user's webhook endpoint (the notification settings) as the service sees it; secrets stay encrypted in the store. */
export interface WebhookEndpoint {
  userId: number;
  url: string | null;
  headerName: string | null;
  /** Whether a header value is stored; the value itself is never shown again. */
  headerValueSet: boolean;
  events: WebhookEvent[];
  failingSince: Date | null;
  disabledAt: Date | null;
  /** `gone` (the receiver answered 410), `failing` (5 days of failures) */
  disabledReason: DisabledReason | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DisabledReason = 'gone' | 'failing';

/** The settings form as submitted. */
export interface WebhookSettingsForm {
  url: string;
  headerName: string;
  headerValue: string;
  events: string[];
}

/** What a save changes about the header value. */
export type HeaderValueChange = { kind: 'keep' } | { kind: 'clear' } | { kind: 'set'; value: string };

export interface WebhookSettingsChange {
  url: string | null;
  headerName: string | null;
  headerValue: HeaderValueChange;
  events: WebhookEvent[];
}

export type WebhookSettingsField = 'url' | 'header_name' | 'header_value' | 'events';
export type WebhookSettingsErrors = Partial<Record<WebhookSettingsField, string>>;

/** How long a rotated-out signing secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 3600_000;
/** Failing this long without a single success disables the endpoint (and its owner gets an e-mail). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
/** Headers the service sets itself (or the HTTP client owns): a configured one would clash. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-type',
  'content-length',
  'user-agent',
  'connection',
  'transfer-encoding',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);
const MAX_URL_LENGTH = 2000;
const MAX_HEADER_VALUE_LENGTH = 2000;

// RFC 9110 field-value: field-vchar (visible ASCII or obs-text) first and last, SP and HTAB only between.
const FIELD_VALUE = /^[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/;

/** What a header value may be, as the page says it. */
export const HEADER_VALUE_RULE = `A header value is one line of at most ${MAX_HEADER_VALUE_LENGTH} characters: visible characters, with spaces and tabs only between them (no control characters, no spaces at either end).`;

/**
 * Whether a value may be the configured header's: an RFC 9110 field-value of at most MAX_HEADER_VALUE_LENGTH
 * characters. The one rule, checked when the settings are saved and again before each send (a value stored
 * before the rule was this strict is refused there, not sent to fail).
 */
export const isHeaderValue = (value: string): boolean =>
  value.length <= MAX_HEADER_VALUE_LENGTH && FIELD_VALUE.test(value);

/**
 * The spec's save rules (Webhook authentication header): an empty header name removes the header; an empty
 * value keeps the stored one. The URL's address is judged separately (services/webhook-settings.ts), since
 * that needs DNS. `hasStoredValue`: whether a header value is stored now.
 */
export function decideSettingsChange(
  form: WebhookSettingsForm,
  hasStoredValue: boolean,
): { change: WebhookSettingsChange } | { errors: WebhookSettingsErrors } {
  const errors: WebhookSettingsErrors = {};
  const url = form.url.trim();
  if (url) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      errors.url = 'Enter a full URL starting with https:// or http://.';
    }
    if (parsed && !['http:', 'https:'].includes(parsed.protocol))
      errors.url = 'Enter a full URL starting with https:// or http://.';
    else if (parsed && (parsed.username || parsed.password))
      errors.url = 'Put credentials in the authentication header, not in the URL.';
    else if (url.length > MAX_URL_LENGTH) errors.url = `The URL is longer than ${MAX_URL_LENGTH} characters.`;
  }
  const headerName = form.headerName.trim();
  const headerValue = form.headerValue;
  let headerChange: HeaderValueChange = { kind: 'clear' };
  if (headerName) {
    if (!HEADER_NAME.test(headerName))
      errors.header_name = 'A header name has letters, digits and - only (for example X-Webhook-Secret).';
    else if (RESERVED_HEADERS.has(headerName.toLowerCase()))
      errors.header_name = `The service sets ${headerName} itself; choose another header.`;
    if (headerValue === '') {
      if (hasStoredValue) headerChange = { kind: 'keep' };
      else errors.header_value = 'Enter the header value.';
    } else if (!isHeaderValue(headerValue)) {
      errors.header_value = HEADER_VALUE_RULE;
    } else headerChange = { kind: 'set', value: headerValue };
  }
  const events: WebhookEvent[] = [];
  for (const event of form.events) {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) errors.events = `Unknown event ${event}.`;
    else if (!events.includes(event as WebhookEvent)) events.push(event as WebhookEvent);
  }
  if (Object.keys(errors).length) return { errors };
  return { change: { url: url || null, headerName: headerName || null, headerValue: headerChange, events } };
}
