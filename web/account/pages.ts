import { isoTimestamp } from '../../core/clock.ts';
import { hasFeature, type Plan } from '../../core/plans.ts';
import type { ApiToken } from '../../core/api-token.ts';
import { formatDateTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { t } from '../text.ts';
import { accountText } from './labels.ts';
import { accountMailText } from './mail-labels.ts';
import type { AuthorisedApp } from '../../core/oauth/apps.ts';
import { appsSection } from '../oauth/apps-section.ts';
import { planLink } from '../plan/link.ts';

export type FormErrors = Record<string, string>;

/** A field's error right after it (id `${id}-error`, which the field names in aria-describedby). */
const fieldError = (errors: FormErrors, name: string, id = name) =>
  errors[name] ? html`<p class="error field-error" id="${id}-error">${errors[name]}</p>` : html``;
const described = (errors: FormErrors, name: string, id = name) =>
  errors[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="${id}-error"`) : '';

/** `next`: where to continue after signing in (or up); carried by both forms and the link between them. */
export function loginPage(chrome: Chrome, csrf: string, email = '', errors: FormErrors = {}, next = '/'): string {
  const text = accountText(chrome.locale);
  const frame = t(chrome.locale);
  return layout(
    text.signInTitle,
    html`<section><h1>${text.signInTitle}</h1>
      ${errors.form ? html`<p class="error" id="form-error" role="alert">${errors.form}</p>` : html``}
      <form method="post" action="/login">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="email">${text.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
        <label for="password">${text.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
        <div class="form-actions"><button type="submit" id="sign-in">${frame.signIn}</button></div>
      </form>
      <p><a href="/password/forgot" id="forgot-password">${accountMailText(chrome.locale).forgotLink}</a></p>
      <p>${text.noAccount} <a href="/signup${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}" id="to-sign-up">${frame.signUp}</a>.</p></section>`,
    chrome,
  );
}

export function signupPage(
  chrome: Chrome,
  csrf: string,
  values: { name?: string; email?: string } = {},
  errors: FormErrors = {},
  next = '/',
): string {
  const text = accountText(chrome.locale);
  const frame = t(chrome.locale);
  return layout(
    text.signUpTitle,
    html`<section><h1>${text.signUpTitle}</h1>
      ${errors.form ? html`<p class="error" id="form-error" role="alert">${errors.form}</p>` : html``}
      <form method="post" action="/signup">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="name">${text.name}</label><input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${values.name ?? ''}"${described(errors, 'name')}>${fieldError(errors, 'name')}
        <label for="email">${text.email}</label><input id="email" name="email" type="email" autocomplete="email" required value="${values.email ?? ''}"${described(errors, 'email')}>${fieldError(errors, 'email')}
        <label for="password">${text.passwordRule}</label><input id="password" name="password" type="password" autocomplete="new-password" required${described(errors, 'password')}>${fieldError(errors, 'password')}
        <div class="form-actions"><button type="submit" id="sign-up">${text.createAccount}</button></div>
      </form>
      <p>${text.haveAccount} <a href="/login${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}">${frame.signIn}</a>.</p></section>`,
    chrome,
  );
}

export interface ApiPageInput {
  chrome: Chrome;
  plan: Plan;
  csrf: string;
  tokens: ApiToken[];
  newToken?: { name: string; value: string };
  values?: { name?: string; expires?: string };
  errors?: FormErrors;
  /** Apps the user authorised through OAuth. */
  apps: AuthorisedApp[];
  /** The MCP server's address, named where no app is authorised yet. */
  mcpUrl: string;
}

/** A time as the pages show it, with the exact UTC instant in its `datetime`. */
const when = (value: Date, locale: Locale) =>
  html`<time datetime="${isoTimestamp(value)}">${formatDateTime(value, locale)}</time>`;

export function apiPage(input: ApiPageInput): string {
  const errors = input.errors ?? {};
  const { locale } = input.chrome;
  const text = accountText(locale);
  const rows = input.tokens.map(
    (token) => html`<tr data-token-id="${token.id}">
      <td class="token-name wide">${token.name}</td><td><code>${token.prefix}…</code></td><td data-label="${text.colCreated}">${when(token.createdAt, locale)}</td>
      <td class="last-used" data-label="${text.colLastUsed}">${token.lastUsedAt ? when(token.lastUsedAt, locale) : text.never}</td><td data-label="${text.colExpires}">${token.expiresAt ? when(token.expiresAt, locale) : text.never}</td>
      <td><form class="inline" method="post" action="/account/api/tokens/${token.id}/delete">
        <input type="hidden" name="_csrf" value="${input.csrf}"><button type="submit" class="delete-token secondary" aria-label="${text.deleteTokenNamed(token.name)}">${text.deleteToken}</button></form></td></tr>`,
  );
  const apiNote: SafeHtml = hasFeature(input.plan, 'api')
    ? html`<p>${text.apiIncluded(input.plan.label, input.plan.apiDailyLimit === -1 ? null : input.plan.apiDailyLimit)}</p>`
    : html`<p class="error">${text.apiMissing(input.plan.label)} ${planLink(locale)}</p>`;
  return layout(
    text.apiTitle,
    html`<h1>${text.apiTitle}</h1>
      ${
        input.newToken
          ? html`<section class="notice" id="new-token"><strong>${text.tokenCreated(input.newToken.name)}</strong> ${text.tokenShownOnce}
            <code class="token" id="new-token-value">${input.newToken.value}</code></section>`
          : html``
      }
      <section><h2>${text.tokensTitle}</h2>${apiNote}<p><a href="/docs" id="api-reference">${text.apiReference}</a></p>
        ${
          rows.length
            ? html`<table id="tokens" class="stack"><thead><tr><th scope="col">${text.colName}</th><th scope="col">${text.colToken}</th><th scope="col">${text.colCreated}</th><th scope="col">${text.colLastUsed}</th><th scope="col">${text.colExpires}</th><th scope="col"><span class="visually-hidden">${text.colActions}</span></th></tr></thead><tbody>${rows}</tbody></table>`
            : html`<p id="no-tokens">${text.noTokens}</p>`
        }
        <h3>${text.createToken}</h3>
        <form method="post" action="/account/api/tokens" id="create-token">
          <input type="hidden" name="_csrf" value="${input.csrf}">
          <label for="token-name">${text.tokenName}</label><input id="token-name" name="name" type="text" required maxlength="100" value="${input.values?.name ?? ''}"${described(errors, 'name', 'token-name')}>${fieldError(errors, 'name', 'token-name')}
          <label for="token-expires">${text.tokenExpires}</label><input id="token-expires" name="expires" type="date" value="${input.values?.expires ?? ''}"${described(errors, 'expires', 'token-expires')}>${fieldError(errors, 'expires', 'token-expires')}
          <button type="submit" id="create-token-button">${text.createTokenButton}</button>
        </form></section>
      <section id="notifications"><h2>${text.notificationsTitle}</h2><p><a href="/account/notifications" id="notifications-link">${text.notificationsLink}</a></p></section>
      ${appsSection({ apps: input.apps, csrf: input.csrf, locale, mcpUrl: input.mcpUrl })}`,
    input.chrome,
  );
}
