import { isoTimestamp } from '../../core/clock.ts';
import { formatDateTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { AuthorisedApp } from '../../core/oauth/apps.ts';
import { html, type SafeHtml } from '../html.ts';
import { oauthText, scopeText } from './labels.ts';

const when = (value: Date, locale: Locale) =>
  html`<time datetime="${isoTimestamp(value)}">${formatDateTime(value, locale)}</time>`;

/** The settings' list of authorised apps, each with a button that revokes its grant. */
export function appsSection(input: { apps: AuthorisedApp[]; csrf: string; locale: Locale; mcpUrl: string }): SafeHtml {
  const { locale } = input;
  const text = oauthText(locale);
  const rows = input.apps.map(
    (app) => html`<tr data-grant-id="${app.grantId}">
      <td class="wide"><strong>${app.name}</strong></td>
      <td data-label="${text.colHost}">${app.clientIdHost}${app.verified ? '' : html` <span class="error">(${text.unverifiedShort})</span>`}</td>
      <td data-label="${text.colScopes}"><span title="${app.scopes.map((s) => scopeText(s, locale)).join('; ')}">${app.scopes.map((s) => text.scopeShort[s]).join(', ')}</span></td>
      <td data-label="${text.colAuthorised}">${when(app.authorisedAt, locale)}</td>
      <td data-label="${text.colLastUsed}">${app.lastUsedAt ? when(app.lastUsedAt, locale) : text.never}</td>
      <td><form class="inline" method="post" action="/settings/apps/${app.grantId}/revoke">
        <input type="hidden" name="_csrf" value="${input.csrf}"><button type="submit" class="secondary revoke-app" aria-label="${text.revokeNamed(app.name)}">${text.revoke}</button></form></td></tr>`,
  );
  return html`<section id="apps"><h2>${text.appsTitle}</h2>
    ${
      rows.length
        ? html`<table id="apps-table" class="stack"><thead><tr><th scope="col">${text.colApp}</th><th scope="col">${text.colHost}</th><th scope="col">${text.colScopes}</th><th scope="col">${text.colAuthorised}</th><th scope="col">${text.colLastUsed}</th><th scope="col"><span class="visually-hidden">${text.revoke}</span></th></tr></thead><tbody>${rows}</tbody></table>`
        : html`<p id="no-apps">${text.appsNone(input.mcpUrl)}</p>`
    }</section>`;
}
