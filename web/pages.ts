import { isoTimestamp } from '../core/clock.ts';
import { hasFeature, type Plan } from '../core/plans.ts';
import type { ApiToken } from '../core/api-token.ts';
import { html, type SafeHtml } from './html.ts';
import { layout, type Chrome } from './layout.ts';
import { t } from './text.ts';

export type FormErrors = Record<string, string>;

const fieldError = (errors: FormErrors, name: string) => (errors[name] ? html`<div class="error" id="${name}-error">${errors[name]}</div>` : html``);

/** `next`: where to continue after signing in (or up); carried by both forms and the link between them. */
export function loginPage(chrome: Chrome, csrf: string, email = '', errors: FormErrors = {}, next = '/'): string {
  const text = t(chrome.locale);
  return layout(
    text.signInTitle,
    html`<section><h1>${text.signInTitle}</h1>
      ${errors.form ? html`<p class="error" id="form-error">${errors.form}</p>` : html``}
      <form method="post" action="/login">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="email">${text.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
        <label for="password">${text.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit" id="sign-in">${text.signIn}</button>
      </form>
      <p>${text.noAccount} <a href="/signup${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}" id="to-sign-up">${text.signUp}</a>.</p></section>`,
    chrome,
  );
}

export function signupPage(chrome: Chrome, csrf: string, values: { name?: string; email?: string } = {}, errors: FormErrors = {}, next = '/'): string {
  const text = t(chrome.locale);
  return layout(
    text.signUpTitle,
    html`<section><h1>${text.signUpTitle}</h1>
      ${errors.form ? html`<p class="error" id="form-error">${errors.form}</p>` : html``}
      <form method="post" action="/signup">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="name">${text.name}</label><input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${values.name ?? ''}">${fieldError(errors, 'name')}
        <label for="email">${text.email}</label><input id="email" name="email" type="email" autocomplete="email" required value="${values.email ?? ''}">${fieldError(errors, 'email')}
        <label for="password">${text.passwordRule}</label><input id="password" name="password" type="password" autocomplete="new-password" required>${fieldError(errors, 'password')}
        <button type="submit" id="sign-up">${text.createAccount}</button>
      </form>
      <p>${text.haveAccount} <a href="/login${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}">${text.signIn}</a>.</p></section>`,
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
}

const when = (value: Date | null) => (value ? isoTimestamp(value) : '—');

export function apiPage(input: ApiPageInput): string {
  const errors = input.errors ?? {};
  const rows = input.tokens.map(
    (t) => html`<tr data-token-id="${t.id}">
      <td class="token-name">${t.name}</td><td><code>${t.prefix}…</code></td><td>${when(t.createdAt)}</td>
      <td class="last-used">${t.lastUsedAt ? when(t.lastUsedAt) : 'never'}</td><td>${t.expiresAt ? when(t.expiresAt) : 'never'}</td>
      <td><form class="inline" method="post" action="/account/api/tokens/${t.id}/delete">
        <input type="hidden" name="_csrf" value="${input.csrf}"><button type="submit" class="delete-token secondary" aria-label="Delete ${t.name}">Delete</button></form></td></tr>`,
  );
  const apiNote: SafeHtml = hasFeature(input.plan, 'api')
    ? html`<p>Your plan (${input.plan.label}) includes API access: ${input.plan.apiDailyLimit === -1 ? 'unlimited requests' : `${input.plan.apiDailyLimit} requests per day (UTC)`}.</p>`
    : html`<p class="error">Your plan (${input.plan.label}) has no API access; tokens work once you upgrade to Starter or higher.</p>`;
  return layout(
    'API and apps',
    html`<h1>API and apps</h1>
      ${input.newToken
        ? html`<section class="notice" id="new-token"><strong>Token “${input.newToken.name}” created.</strong> Copy it now: it is shown only this once.
            <code class="token" id="new-token-value">${input.newToken.value}</code></section>`
        : html``}
      <section><h2>Personal API tokens</h2>${apiNote}
        ${rows.length
          ? html`<table id="tokens"><thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span class="muted">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`
          : html`<p id="no-tokens">No tokens yet.</p>`}
        <h3>Create a token</h3>
        <form method="post" action="/account/api/tokens" id="create-token">
          <input type="hidden" name="_csrf" value="${input.csrf}">
          <label for="token-name">Name</label><input id="token-name" name="name" type="text" required maxlength="100" value="${input.values?.name ?? ''}">${fieldError(errors, 'name')}
          <label for="token-expires">Expires (optional, UTC date)</label><input id="token-expires" name="expires" type="date" value="${input.values?.expires ?? ''}">${fieldError(errors, 'expires')}
          <button type="submit" id="create-token-button">Create token</button>
        </form></section>
      <section id="notifications"><h2>Notifications</h2><p><a href="/account/notifications" id="notifications-link">Webhook notification settings</a></p></section>
      <section id="apps"><h2>Authorised apps</h2><p>Apps you authorise through OAuth appear here, and you can revoke them. None yet.</p></section>`,
    input.chrome,
  );
}
