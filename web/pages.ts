import { isoTimestamp } from '../core/clock.ts';
import { hasFeature, type Plan } from '../core/plans.ts';
import type { ApiToken } from '../core/api-token.ts';
import { html, layout, type SafeHtml } from './html.ts';

export type FormErrors = Record<string, string>;

const fieldError = (errors: FormErrors, name: string) => (errors[name] ? html`<div class="error" id="${name}-error">${errors[name]}</div>` : html``);

export function loginPage(csrf: string, email = '', errors: FormErrors = {}, next = '/account/api'): string {
  return layout(
    'Sign in',
    html`<section><h1>Sign in</h1>
      ${errors.form ? html`<p class="error" id="form-error">${errors.form}</p>` : html``}
      <form method="post" action="/login">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
        <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit" id="sign-in">Sign in</button>
      </form>
      <p>No account yet? <a href="/signup">Sign up</a>.</p></section>`,
  );
}

export function signupPage(csrf: string, values: { name?: string; email?: string } = {}, errors: FormErrors = {}): string {
  return layout(
    'Sign up',
    html`<section><h1>Create an account</h1>
      ${errors.form ? html`<p class="error" id="form-error">${errors.form}</p>` : html``}
      <form method="post" action="/signup">
        <input type="hidden" name="_csrf" value="${csrf}">
        <label for="name">Name</label><input id="name" name="name" type="text" required maxlength="100" value="${values.name ?? ''}">${fieldError(errors, 'name')}
        <label for="email">E-mail</label><input id="email" name="email" type="email" required value="${values.email ?? ''}">${fieldError(errors, 'email')}
        <label for="password">Password (at least 10 characters)</label><input id="password" name="password" type="password" autocomplete="new-password" required>${fieldError(errors, 'password')}
        <button type="submit" id="sign-up">Create account</button>
      </form></section>`,
  );
}

export interface ApiPageInput {
  email: string;
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
        <input type="hidden" name="_csrf" value="${input.csrf}"><button type="submit" class="delete-token">Delete</button></form></td></tr>`,
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
          ? html`<table id="tokens"><thead><tr><th>Name</th><th>Token</th><th>Created</th><th>Last used</th><th>Expires</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
          : html`<p id="no-tokens">No tokens yet.</p>`}
        <h3>Create a token</h3>
        <form method="post" action="/account/api/tokens" id="create-token">
          <input type="hidden" name="_csrf" value="${input.csrf}">
          <label for="token-name">Name</label><input id="token-name" name="name" type="text" required maxlength="100" value="${input.values?.name ?? ''}">${fieldError(errors, 'name')}
          <label for="token-expires">Expires (optional, UTC date)</label><input id="token-expires" name="expires" type="date" value="${input.values?.expires ?? ''}">${fieldError(errors, 'expires')}
          <button type="submit" id="create-token-button">Create token</button>
        </form></section>
      <section id="apps"><h2>Authorised apps</h2><p>Apps you authorise through OAuth appear here, and you can revoke them. None yet.</p></section>`,
    { signedInAs: input.email, csrf: input.csrf },
  );
}
