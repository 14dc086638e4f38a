import { isoTimestamp } from '../../core/clock.ts';
import { formatDateTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { WebhookAttempt, WebhookDelivery } from '../../core/webhooks/delivery.ts';
import type { WebhookSettingsErrors } from '../../core/webhooks/endpoint.ts';
import { WEBHOOK_EVENTS } from '../../core/webhooks/events.ts';
import { REPLAY_MAX_DELIVERIES, WEBHOOK_ACTION_LIMITS } from '../../core/webhooks/limits.ts';
import type { WebhookSettingsView } from '../../services/webhook-settings.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { WEBHOOK_LABELS } from './labels.ts';
import { planLink } from '../plan/link.ts';

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
  /** Already in the page's language. */
  notice?: string;
}

/** A time in the page's date format (as on the other pages), with the exact instant in `datetime`. */
const when = (value: Date | null, locale: Locale) =>
  value ? html`<time datetime="${isoTimestamp(value)}">${formatDateTime(value, locale)}</time>` : html`—`;
const fieldError = (errors: WebhookSettingsErrors, name: keyof WebhookSettingsErrors) =>
  errors[name] ? html`<p class="error" id="${name}-error">${errors[name]}</p>` : html``;
const described = (errors: WebhookSettingsErrors, name: keyof WebhookSettingsErrors) =>
  errors[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="${name}-error"`) : '';
const hidden = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

export function webhookPage(input: WebhookPageInput): string {
  const { settings } = input;
  const text = WEBHOOK_LABELS[input.chrome.locale];
  const notice = input.notice ? html`<p class="notice" id="notice" role="status">${input.notice}</p>` : html``;
  if (!settings) {
    return layout(
      text.title,
      html`<h1>${text.title}</h1>${notice}<section><h2>${text.webhooks}</h2><p id="plan-required">${text.planRequired(input.planLabel)} ${planLink(input.chrome.locale)}</p></section>`,
      input.chrome,
    );
  }
  const { endpoint } = settings;
  const errors = input.errors ?? {};
  const values = input.values ?? {
    url: endpoint.url ?? '',
    headerName: endpoint.headerName ?? '',
    events: endpoint.events,
  };
  const disabled = endpoint.disabledAt
    ? html`<section id="endpoint-disabled" class="error"><h2>${text.disabledTitle}</h2><p>${text.disabledSince(formatDateTime(endpoint.disabledAt, input.chrome.locale), text.disabledReasons[endpoint.disabledReason ?? 'failing'])}</p>
        <form method="post" action="/account/notifications/enable">${hidden(input.csrf)}<button type="submit" id="enable-endpoint">${text.enable}</button></form></section>`
    : html``;
  const events = WEBHOOK_EVENTS.map(
    (
      event,
    ) => html`<div><input type="checkbox" name="events" value="${event}" id="event-${event}" ${values.events.includes(event) ? new SafeHtml('checked') : ''}>
      <label class="inline" for="event-${event}"><code>${event}</code>: ${text.events[event]}</label></div>`,
  );
  return layout(
    text.title,
    html`<h1>${text.title}</h1>${notice}${disabled}
      <p><a href="/account/alert-destinations" id="alert-destinations-link">${text.destinationsLink}</a></p>
      <section><h2>${text.endpointTitle}</h2>
        <form method="post" action="/account/notifications" id="webhook-settings">${hidden(input.csrf)}
          <label for="url">${text.url}</label><input id="url" name="url" type="url" maxlength="2000" value="${values.url}"${described(errors, 'url')}>${fieldError(errors, 'url')}
          <label for="header_name">${text.headerName}</label>
          <input id="header_name" name="header_name" type="text" maxlength="100" placeholder="X-Webhook-Secret" value="${values.headerName}"${described(errors, 'header_name')}>${fieldError(errors, 'header_name')}
          <label for="header_value">${text.headerValue}</label>
          <input id="header_value" name="header_value" type="password" autocomplete="off" maxlength="2000"${described(errors, 'header_value')}>
          <p class="muted" id="header-value-state">${endpoint.headerValueSet ? text.headerValueSet : text.headerValueUnset}</p>${fieldError(errors, 'header_value')}
          <fieldset><legend>${text.eventsLegend}</legend>${events}</fieldset>${fieldError(errors, 'events')}
          <button type="submit" id="save-settings">${text.save}</button>
        </form></section>
      <section id="signing"><h2>${text.signingTitle}</h2>
        <p>${text.signingIntro(html`<code>webhook-id</code>`, html`<code>webhook-timestamp</code>`, html`<code>webhook-signature</code>`)}</p>
        <code class="token" id="signing-secret">${settings.secret}</code>
        ${
          settings.previousSecret
            ? html`<p id="previous-secret">${text.previousSecret(formatDateTime(settings.previousSecret.expiresAt, input.chrome.locale))} <code>${settings.previousSecret.secret}</code></p>`
            : html``
        }
        <form method="post" action="/account/notifications/rotate">${hidden(input.csrf)}<button type="submit" class="secondary" id="rotate-secret">${text.rotate}</button></form>
      </section>
      <section id="test"><h2>${text.testTitle}</h2><p>${text.testIntro(html`<code>ping</code>`)}</p>
        <form method="post" action="/account/notifications/test">${hidden(input.csrf)}<button type="submit" id="send-test">${text.sendTest}</button></form></section>
      <section id="deliveries"><h2>${text.historyTitle}</h2>
        ${input.deliveries.length ? deliveryTable(input.deliveries, input.csrf, text, input.chrome.locale) : html`<p id="no-deliveries">${text.noDeliveries}</p>`}
        <form method="post" action="/account/notifications/replay" id="replay">${hidden(input.csrf)}
          <label for="since">${text.replaySince}</label><input id="since" name="since" type="datetime-local" required>
          <button type="submit" class="secondary" id="replay-button">${text.replay}</button>
          <p class="muted" id="replay-limits">${text.replayLimits(REPLAY_MAX_DELIVERIES, WEBHOOK_ACTION_LIMITS.replay.max, WEBHOOK_ACTION_LIMITS.replay.windowMs / 60_000)}</p></form>
      </section>`,
    input.chrome,
  );
}

type Labels = (typeof WEBHOOK_LABELS)[keyof typeof WEBHOOK_LABELS];

function deliveryTable(deliveries: WebhookDelivery[], csrf: string, text: Labels, locale: Locale): SafeHtml {
  const rows = deliveries.map(
    (
      d,
    ) => html`<tr data-delivery-id="${d.id}"><td class="wide"><code>${d.event}</code>${d.destinationId ? html` <span class="muted destination">${text.toDestination}</span>` : html``}</td><td data-label="${text.colCreated}">${when(d.createdAt, locale)}</td><td class="status">${text.statuses[d.status]}</td>
      <td data-label="${text.colAttempts}" class="attempts">${d.webhookAttempts}</td><td data-label="${text.colLastCode}" class="code">${d.webhookResponseCode ?? '—'}</td><td data-label="${text.colLastError}" class="last-error">${d.webhookLastError ?? ''}</td>
      <td class="wide"><a href="/account/notifications/deliveries/${d.id}">${text.attemptsLink}</a>
        <form class="inline" method="post" action="/account/notifications/deliveries/${d.id}/resend">${hidden(csrf)}<button type="submit" class="secondary resend" aria-label="${text.resendNamed(d.id)}">${text.resend}</button></form></td></tr>`,
  );
  return html`<table id="delivery-table" class="stack"><thead><tr><th scope="col">${text.colEvent}</th><th scope="col">${text.colCreated}</th><th scope="col">${text.colStatus}</th><th scope="col">${text.colAttempts}</th><th scope="col">${text.colLastCode}</th><th scope="col">${text.colLastError}</th><th scope="col"><span class="muted">${text.colActions}</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function deliveryPage(input: { chrome: Chrome; delivery: WebhookDelivery; attempts: WebhookAttempt[] }): string {
  const { delivery, attempts } = input;
  const text = WEBHOOK_LABELS[input.chrome.locale];
  const rows = attempts.map(
    (a) =>
      html`<tr><td class="wide">${when(a.attemptedAt, input.chrome.locale)}</td><td data-label="${text.colDuration}">${a.durationMs} ms</td><td data-label="${text.colCode}">${a.responseCode ?? '—'}</td><td class="wide" data-label="${text.colError}">${a.error ?? ''}</td><td class="wide"><pre>${a.responseBody ?? ''}</pre></td></tr>`,
  );
  return layout(
    text.deliveryTitle(delivery.id),
    html`<h1>${text.deliveryTitle(delivery.id)}: <code>${delivery.event}</code></h1>
      <section><p>webhook-id <code>${delivery.messageId}</code>, ${text.deliverySummary(text.statuses[delivery.status], delivery.webhookAttempts)} <a href="/account/notifications">${text.backToSettings}</a></p>
        <h2>${text.payload}</h2><pre id="payload">${JSON.stringify(delivery.payload, null, 2)}</pre>
        <h2>${text.attemptsTitle}</h2><table id="attempts" class="stack"><thead><tr><th scope="col">${text.colTime}</th><th scope="col">${text.colDuration}</th><th scope="col">${text.colCode}</th><th scope="col">${text.colError}</th><th scope="col">${text.colResponse}</th></tr></thead><tbody>${rows}</tbody></table></section>`,
    input.chrome,
  );
}
