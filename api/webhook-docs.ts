import { RETRY_DELAYS_MS } from '../core/webhooks/delivery.ts';
import { WEBHOOK_EVENTS, type DeliveryEvent } from '../core/webhooks/events.ts';
import { WEBHOOK_PAYLOAD_SCHEMAS } from '../core/webhooks/schemas.ts';

const SENT_WHEN: Record<DeliveryEvent, string> = {
  'alert.triggered': 'A score alert of a monitored target is raised (critical or warning).',
  'alert.resolved': 'A score alert resolves.',
  'scan.completed': 'A scan finishes successfully. lcp_ms, cls and tbt_ms are the mobile measurements.',
  'rum.alert.triggered':
    'A live-data alert fires (p75 above the threshold). Not sent yet: the live-data alert check is not built.',
  'rum.alert.resolved':
    'A live-data alert resolves (p75 below the threshold). Not sent yet: the live-data alert check is not built.',
  'flow.completed':
    "Extension: a user flow run finished (any trigger: API, web area, the flow's daily schedule). `url` is the page of the first navigation step; `flow` names the flow, the run and its trigger; `steps` holds each measured step's metrics and Lighthouse category scores. Not sent as scan.completed, whose scores are this service's categories, which flow steps do not have.",
  'flow.failed':
    'Extension: a user flow run failed. `failed_step` names where and why (index and step_type null when the run failed outside any step, code `run_error`, or `not_started` for a run that never ran); `steps` holds the steps measured before it; `url` is where the flow starts.',
  ping: 'The test event of the notification settings page.',
};

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

/**
 * The OpenAPI 3.1 `webhooks` section: one operation per event, its body the JSON Schema every payload is
 * validated against before it is sent (core/webhooks/schemas.ts), with the Standard Webhooks headers.
 */
export function webhookOperations(): Record<string, unknown> {
  const schedule = [
    'immediately',
    ...RETRY_DELAYS_MS.map((ms) =>
      ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`,
    ),
  ].join(', ');
  const events: DeliveryEvent[] = [...WEBHOOK_EVENTS, 'ping'];
  return Object.fromEntries(
    events.map((event) => [
      event,
      {
        post: {
          summary: event,
          description: [
            SENT_WHEN[event],
            'POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header.',
            `A non-2xx answer, a timeout (15 s) or a connection error is retried (${schedule}); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed.`,
            'Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.',
          ].join(' '),
          ...(event === 'ping' || event.startsWith('flow.') ? { 'x-extension': true } : {}),
          parameters: [
            header('webhook-id', 'The delivery id (msg_…), the same on every retry and resend.'),
            header('webhook-timestamp', 'Unix seconds when this attempt was signed.'),
            header(
              'webhook-signature',
              '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation.',
            ),
          ],
          requestBody: { required: true, content: { 'application/json': { schema: WEBHOOK_PAYLOAD_SCHEMAS[event] } } },
          responses: { '2XX': { description: 'Received. Any other answer counts as a failure.' } },
        },
      },
    ]),
  );
}
