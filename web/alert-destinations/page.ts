import { CHAT_KINDS, CHAT_KIND_NAMES, ALERT_DESTINATIONS_PATH } from '../../core/alert-destinations/notice.ts';
import type { AlertDestination } from '../../db/store/alert-destinations.ts';
import type { DestinationError } from '../../services/alert-destinations.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { planLink } from '../plan/link.ts';
import { DESTINATION_LABELS } from './labels.ts';

export interface DestinationFormErrors {
  url?: DestinationError;
  kind?: DestinationError;
  target?: DestinationError;
}

/** The alert destinations page: the owner's Slack and Teams destinations (URL hints only) and the form to add one. */
export interface DestinationPageInput {
  chrome: Chrome;
  csrf: string;
  planLabel: string;
  /** Null below Pro: the page says which plan has them and shows no form. */
  destinations: AlertDestination[] | null;
  /** The owner's monitored targets a destination may be limited to. */
  targets: Array<{ id: number; url: string }>;
  values?: { kind: string; target: string };
  errors?: DestinationFormErrors;
  /** Already in the page's language. */
  notice?: string;
}

const hidden = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

export function destinationsPage(input: DestinationPageInput): string {
  const text = DESTINATION_LABELS[input.chrome.locale];
  const notice = input.notice ? html`<p class="notice" id="notice" role="status">${input.notice}</p>` : html``;
  if (!input.destinations) {
    return layout(
      text.title,
      html`<h1>${text.title}</h1>${notice}<p>${text.intro}</p><p id="plan-required">${text.planRequired(input.planLabel)} ${planLink(input.chrome.locale)}</p>`,
      input.chrome,
    );
  }
  const targetUrl = new Map(input.targets.map((t) => [t.id, t.url]));
  const errors = input.errors ?? {};
  const values = input.values ?? { kind: 'slack', target: '' };
  const rows = input.destinations.map((d) => {
    const service = CHAT_KIND_NAMES[d.kind];
    const scope = d.targetId === null ? text.allAlerts : text.targetOnly(targetUrl.get(d.targetId) ?? `#${d.targetId}`);
    const state = d.disabledAt
      ? text.disabled(text.disabledReasons[d.disabledReason ?? ''] ?? d.disabledReason ?? '')
      : text.active;
    const action = (path: string, label: string, named: string, cls: string) =>
      html`<form class="inline" method="post" action="${ALERT_DESTINATIONS_PATH}/${d.id}/${path}">${hidden(input.csrf)}<button type="submit" class="${cls}" aria-label="${named}">${label}</button></form>`;
    return html`<tr data-destination-id="${d.id}"><td class="wide">${service}</td><td data-label="${text.colUrl}"><code>${d.urlHint}</code></td><td data-label="${text.colScope}">${scope}</td><td data-label="${text.colState}" class="state">${state}</td>
      <td class="wide">${action('test', text.sendTest, text.sendTestNamed(service, d.urlHint), 'send-test')}
        ${d.disabledAt ? action('enable', text.enable, text.enable, 'secondary enable') : html``}
        ${action('remove', text.remove, text.removeNamed(service, d.urlHint), 'secondary remove')}</td></tr>`;
  });
  const list = input.destinations.length
    ? html`<table id="destinations" class="stack"><thead><tr><th scope="col">${text.colService}</th><th scope="col">${text.colUrl}</th><th scope="col">${text.colScope}</th><th scope="col">${text.colState}</th><th scope="col"><span class="muted">${text.colActions}</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p id="no-destinations">${text.none}</p>`;
  const error = (name: keyof DestinationFormErrors) =>
    errors[name] ? html`<p class="error" id="${name}-error">${text.errors[errors[name]!]}</p>` : html``;
  const described = (name: keyof DestinationFormErrors, hint?: string) => {
    const ids = [hint, errors[name] ? `${name}-error` : undefined].filter(Boolean).join(' ');
    return new SafeHtml(`${errors[name] ? ' aria-invalid="true"' : ''}${ids ? ` aria-describedby="${ids}"` : ''}`);
  };
  const option = (value: string, label: string, chosen: string) =>
    html`<option value="${value}"${value === chosen ? new SafeHtml(' selected') : ''}>${label}</option>`;
  return layout(
    text.title,
    html`<h1>${text.title}</h1>${notice}<p>${text.intro}</p>
      <section id="destination-list"><h2>${text.listTitle}</h2>${list}
        <p class="muted"><a href="/account/notifications#deliveries" id="history-link">${text.historyLink}</a></p></section>
      <section id="add"><h2>${text.addTitle}</h2>
        <form method="post" action="${ALERT_DESTINATIONS_PATH}" id="add-destination">${hidden(input.csrf)}
          <label for="kind">${text.service}</label><select id="kind" name="kind"${described('kind')}>${CHAT_KINDS.map((kind) => option(kind, CHAT_KIND_NAMES[kind], values.kind))}</select>${error('kind')}
          <label for="url">${text.url}</label><input id="url" name="url" type="url" required maxlength="2000" autocomplete="off"${described('url', 'url-hint')}>
          <p class="muted" id="url-hint">${text.urlHint}</p>${error('url')}
          <label for="target">${text.scope}</label><select id="target" name="target"${described('target')}>${option('', text.scopeAll, values.target)}${input.targets.map((t) => option(String(t.id), text.scopeTarget(t.url), values.target))}</select>${error('target')}
          <button type="submit" id="add-button">${text.add}</button>
        </form></section>`,
    input.chrome,
  );
}
