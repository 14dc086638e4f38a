import { isoTimestamp } from '../core/clock.ts';
import type { WebhookAttempt, WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { WebhookSettingsErrors } from '../core/webhooks/endpoint.ts';
import { WEBHOOK_EVENTS } from '../core/webhooks/events.ts';
import type { WebhookSettingsView } from '../services/webhook-settings.ts';
import { html, SafeHtml } from './html.ts';
import { layout, type Chrome } from './layout.ts';

/** The notification settings (webhooks): settings form, signing secret, test event, delivery history. */
export interface WebhookPageInput {
  chrome: Chrome;
  csrf: string;
  planLabel: string;
  /** Null below Pro: the page says which plan has webhooks and shows no form. */
  settings: WebhookSettingsView | null;
  deliveries: WebhookDelivery[];
  values?: { url: string; headerName: string; events: string[] };
  errors?: WebhookSettingsErrors;
  notice?: string;
}

const EVENT_DESCRIPTIONS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  'alert.triggered': 'a score alert of a monitored target is raised',
  'alert.resolved': 'a score alert resolves',
  'scan.completed': 'a scan finishes',
  'rum.alert.triggered': 'a live-data alert fires (available with live data)',
  'rum.alert.resolved': 'a live-data alert resolves (available with live data)',
};

const when = (value: Date | null) => (value ? isoTimestamp(value) : '—');
const fieldError = (errors: WebhookSettingsErrors, name: keyof WebhookSettingsErrors) => (errors[name] ? html`<p class="error" id="${name}-error">${errors[name]}</p>` : html``);
const described = (errors: WebhookSettingsErrors, name: keyof WebhookSettingsErrors) => (errors[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="${name}-error"`) : '');
const hidden = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

const DISABLED_REASONS = { gone: 'the receiver answered 410 Gone', failing: 'every delivery failed for 5 days' } as const;

export function webhookPage(input: WebhookPageInput): string {
  const { settings } = input;
  const notice = input.notice ? html`<p class="notice" id="notice" role="status">${input.notice}</p>` : html``;
  if (!settings) {
    return layout(
      'Notifications',
      html`<h1>Notifications</h1>${notice}<section><h2>Webhooks</h2><p id="plan-required">Webhooks are available from the Pro plan. Your plan is ${input.planLabel}.</p></section>`,
      input.chrome,
    );
  }
  const { endpoint } = settings;
  const errors = input.errors ?? {};
  const values = input.values ?? { url: endpoint.url ?? '', headerName: endpoint.headerName ?? '', events: endpoint.events };
  const disabled = endpoint.disabledAt
    ? html`<section id="endpoint-disabled" class="error"><h2>Endpoint disabled</h2><p>No events are sent since ${when(endpoint.disabledAt)}: ${DISABLED_REASONS[endpoint.disabledReason ?? 'failing']}.</p>
        <form method="post" action="/account/notifications/enable">${hidden(input.csrf)}<button type="submit" id="enable-endpoint">Re-enable the endpoint</button></form></section>`
    : html``;
  const events = WEBHOOK_EVENTS.map(
    (event) => html`<div><input type="checkbox" name="events" value="${event}" id="event-${event}" ${values.events.includes(event) ? new SafeHtml('checked') : ''}>
      <label class="inline" for="event-${event}"><code>${event}</code>: ${EVENT_DESCRIPTIONS[event]}</label></div>`,
  );
  return layout(
    'Notifications',
    html`<h1>Notifications</h1>${notice}${disabled}
      <section><h2>Webhook endpoint</h2>
        <form method="post" action="/account/notifications" id="webhook-settings">${hidden(input.csrf)}
          <label for="url">Webhook URL</label><input id="url" name="url" type="url" maxlength="2000" value="${values.url}"${described(errors, 'url')}>${fieldError(errors, 'url')}
          <label for="header_name">Authentication header name (optional; leave empty to remove the header)</label>
          <input id="header_name" name="header_name" type="text" maxlength="100" placeholder="X-Webhook-Secret" value="${values.headerName}"${described(errors, 'header_name')}>${fieldError(errors, 'header_name')}
          <label for="header_value">Header value</label>
          <input id="header_value" name="header_value" type="password" autocomplete="off" maxlength="2000"${described(errors, 'header_value')}>
          <p class="muted" id="header-value-state">${endpoint.headerValueSet ? 'A value is set; it is never shown again. Leave the field empty to keep it.' : 'No value is set.'}</p>${fieldError(errors, 'header_value')}
          <fieldset><legend>Events</legend>${events}</fieldset>${fieldError(errors, 'events')}
          <button type="submit" id="save-settings">Save</button>
        </form></section>
      <section id="signing"><h2>Signing secret</h2>
        <p>Every request carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (Standard Webhooks); verify them with this secret.</p>
        <code class="token" id="signing-secret">${settings.secret}</code>
        ${settings.previousSecret
          ? html`<p id="previous-secret">The previous secret also signs until ${when(settings.previousSecret.expiresAt)}: <code>${settings.previousSecret.secret}</code></p>`
          : html``}
        <form method="post" action="/account/notifications/rotate">${hidden(input.csrf)}<button type="submit" class="secondary" id="rotate-secret">Rotate the secret</button></form>
      </section>
      <section id="test"><h2>Test</h2><p>Sends a <code>ping</code> event to the URL through the same path as real events.</p>
        <form method="post" action="/account/notifications/test">${hidden(input.csrf)}<button type="submit" id="send-test">Send test event</button></form></section>
      <section id="deliveries"><h2>Delivery history</h2>
        ${input.deliveries.length ? deliveryTable(input.deliveries, input.csrf) : html`<p id="no-deliveries">No deliveries yet.</p>`}
        <form method="post" action="/account/notifications/replay" id="replay">${hidden(input.csrf)}
          <label for="since">Replay every failed delivery since (UTC)</label><input id="since" name="since" type="datetime-local" required>
          <button type="submit" class="secondary" id="replay-button">Replay failed deliveries</button></form>
      </section>`,
    input.chrome,
  );
}

function deliveryTable(deliveries: WebhookDelivery[], csrf: string): SafeHtml {
  const rows = deliveries.map(
    (d) => html`<tr data-delivery-id="${d.id}"><td><code>${d.event}</code></td><td>${when(d.createdAt)}</td><td class="status">${d.status}</td>
      <td class="attempts">${d.webhookAttempts}</td><td class="code">${d.webhookResponseCode ?? '—'}</td><td class="last-error">${d.webhookLastError ?? ''}</td>
      <td><a href="/account/notifications/deliveries/${d.id}">Attempts</a>
        <form class="inline" method="post" action="/account/notifications/deliveries/${d.id}/resend">${hidden(csrf)}<button type="submit" class="secondary resend" aria-label="Resend delivery ${d.id}">Resend</button></form></td></tr>`,
  );
  return html`<table id="delivery-table"><thead><tr><th scope="col">Event</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last code</th><th scope="col">Last error</th><th scope="col"><span class="muted">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function deliveryPage(input: { chrome: Chrome; delivery: WebhookDelivery; attempts: WebhookAttempt[] }): string {
  const { delivery, attempts } = input;
  const rows = attempts.map(
    (a) => html`<tr><td>${when(a.attemptedAt)}</td><td>${a.durationMs} ms</td><td>${a.responseCode ?? '—'}</td><td>${a.error ?? ''}</td><td><pre>${a.responseBody ?? ''}</pre></td></tr>`,
  );
  return layout(
    `Delivery ${delivery.id}`,
    html`<h1>Delivery ${delivery.id}: <code>${delivery.event}</code></h1>
      <section><p>webhook-id <code>${delivery.messageId}</code>, ${delivery.status}, ${delivery.webhookAttempts} attempt(s). <a href="/account/notifications">Back to the notification settings</a></p>
        <h2>Payload</h2><pre id="payload">${JSON.stringify(delivery.payload, null, 2)}</pre>
        <h2>Attempts</h2><table id="attempts"><thead><tr><th scope="col">Time</th><th scope="col">Duration</th><th scope="col">Code</th><th scope="col">Error</th><th scope="col">Response (first 1 KB)</th></tr></thead><tbody>${rows}</tbody></table></section>`,
    input.chrome,
  );
}
