import type { ApiToken } from '../../core/api-token.ts';
import { isoTimestamp } from '../../core/clock.ts';
import { EMAIL_KINDS, type EmailPreferences } from '../../core/email-preferences.ts';
import { formatDateTime } from '../../core/i18n/dates.ts';
import { LOCALES, type Locale } from '../../core/i18n/locale.ts';
import type { AuthorisedApp } from '../../core/oauth/apps.ts';
import { hasFeature, type Plan } from '../../core/plans.ts';
import type { WebSession } from '../../db/store/sessions.ts';
import { accountText } from '../account/labels.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { copyScriptTag } from '../live/sites-page.ts';
import { appsSection } from '../oauth/apps-section.ts';
import { oauthText } from '../oauth/labels.ts';
import { settingsText, type SettingsNotice } from './labels.ts';
import { browserSummary } from './user-agent.ts';

export type FormErrors = Record<string, string>;

/** Where the settings' forms post (web/settings/routes.ts). */
export const SETTINGS_PATHS = {
  page: '/settings',
  profile: '/settings/profile',
  password: '/settings/password',
  notifications: '/settings/notifications',
  sessionSignOut: (id: number) => `/settings/sessions/${id}/sign-out`,
  othersSignOut: '/settings/sessions/sign-out-others',
  tokens: '/settings/tokens',
  tokenDelete: (id: number) => `/settings/tokens/${id}/delete`,
  plan: '/settings/plan',
  data: '/settings/data',
  email: '/account/email',
  webhooks: '/account/notifications',
  alertDestinations: '/account/alert-destinations',
} as const;

export interface SettingsPageInput {
  chrome: Chrome;
  csrf: string;
  profile: { name: string; email: string; locale: Locale };
  plan: Plan;
  sessions: WebSession[];
  emailPreferences: EmailPreferences;
  tokens: ApiToken[];
  apps: AuthorisedApp[];
  mcpUrl: string;
  /** A token created by the last POST, shown this once (after its redirect). */
  newToken?: { name: string; value: string };
  notice?: SettingsNotice;
  /** Form values sent back with errors (field name: value), and the errors by field. */
  values?: Record<string, string>;
  errors?: FormErrors;
}

const when = (value: Date, locale: Locale) =>
  html`<time datetime="${isoTimestamp(value)}">${formatDateTime(value, locale)}</time>`;

/** A field's error right after it (id `${id}-error`, which the field names in aria-describedby). */
const fieldError = (errors: FormErrors, name: string, id: string) =>
  errors[name] ? html`<p class="error field-error" id="${id}-error">${errors[name]}</p>` : html``;
const described = (errors: FormErrors, name: string, id: string, hint?: string) => {
  const ids = [hint, errors[name] ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return new SafeHtml(`${errors[name] ? ' aria-invalid="true"' : ''}${ids ? ` aria-describedby="${ids}"` : ''}`);
};

/** The settings: profile, e-mail, password, sessions, notifications, API tokens, authorised apps, and where the account's data is downloaded and deleted. */
export function settingsPage(input: SettingsPageInput): string {
  const { locale } = input.chrome;
  const text = settingsText(locale);
  const account = accountText(locale);
  const errors = input.errors ?? {};
  const values = input.values ?? {};
  const csrf = html`<input type="hidden" name="_csrf" value="${input.csrf}">`;
  const sections: Array<[string, string]> = [
    ['profile', text.profileTitle],
    ['email', text.emailTitle],
    ['password', text.passwordTitle],
    ['sessions', text.sessionsTitle],
    ['notifications', text.notificationsTitle],
    ['api-tokens', text.apiTitle],
    ['apps', oauthText(locale).appsTitle],
  ];
  const toc = html`<nav aria-label="${text.sectionsLabel}" class="settings-toc"><ul>${sections.map(
    ([id, title]) => html`<li><a href="#${id}">${title}</a></li>`,
  )}<li><a href="${SETTINGS_PATHS.plan}">${text.plan}</a></li><li><a href="${SETTINGS_PATHS.data}">${text.dataTitle}</a></li></ul></nav>`;

  const name = values.name ?? input.profile.name;
  const chosen = (values.locale as Locale | undefined) ?? input.profile.locale;
  const profile = html`<section id="profile"><h2>${text.profileTitle}</h2>
    <form method="post" action="${SETTINGS_PATHS.profile}" id="profile-form">${csrf}
      <label for="profile-name">${text.name}</label><input id="profile-name" name="name" type="text" autocomplete="name" required maxlength="100" value="${name}"${described(errors, 'name', 'profile-name')}>${fieldError(errors, 'name', 'profile-name')}
      <label for="profile-locale">${text.language}</label><select id="profile-locale" name="locale"${described(errors, 'locale', 'profile-locale', 'profile-locale-hint')}>${LOCALES.map(
        (code) =>
          html`<option value="${code}" lang="${code}"${code === chosen ? new SafeHtml(' selected') : ''}>${text.languageNames[code]}</option>`,
      )}</select>${fieldError(errors, 'locale', 'profile-locale')}
      <p class="muted" id="profile-locale-hint">${text.languageHint}</p>
      <button type="submit" id="save-profile">${text.saveProfile}</button></form></section>`;

  const email = html`<section id="email"><h2>${text.emailTitle}</h2>
    <p>${text.emailAddress}: <strong id="email-address">${input.profile.email}</strong></p>
    <p><a href="${SETTINGS_PATHS.email}" id="change-email">${text.changeEmail}</a></p></section>`;

  const password = html`<section id="password"><h2>${text.passwordTitle}</h2>
    <form method="post" action="${SETTINGS_PATHS.password}" id="password-form">${csrf}
      <input type="text" name="username" autocomplete="username" value="${input.profile.email}" hidden>
      <label for="current-password">${text.currentPassword}</label><input id="current-password" name="current_password" type="password" autocomplete="current-password" required${described(errors, 'current_password', 'current-password')}>${fieldError(errors, 'current_password', 'current-password')}
      <label for="new-password">${text.newPassword}</label><input id="new-password" name="new_password" type="password" autocomplete="new-password" required${described(errors, 'new_password', 'new-password', 'new-password-hint')}>${fieldError(errors, 'new_password', 'new-password')}
      <p class="muted" id="new-password-hint">${text.newPasswordHint}</p>
      <button type="submit" id="change-password">${text.changePassword}</button></form></section>`;

  const others = input.sessions.filter((session) => !session.current);
  const sessionRows = input.sessions.map((session) => {
    const browser = browserSummary(session.userAgent) ?? text.unknownBrowser;
    return html`<tr data-session-id="${session.id}"${session.current ? new SafeHtml(' data-current="yes"') : ''}>
      <td class="wide">${browser}</td><td data-label="${text.colCreated}">${when(session.createdAt, locale)}</td><td data-label="${text.colLastActive}">${when(session.lastSeenAt, locale)}</td>
      <td>${
        session.current
          ? html`<strong class="this-session">${text.thisSession}</strong>`
          : html`<form class="inline" method="post" action="${SETTINGS_PATHS.sessionSignOut(session.id)}">${csrf}<button type="submit" class="secondary sign-out-session" aria-label="${text.signOutSessionNamed(browser, formatDateTime(session.createdAt, locale))}">${text.signOutSession}</button></form>`
      }</td></tr>`;
  });
  const sessions = html`<section id="sessions"><h2>${text.sessionsTitle}</h2><p>${text.sessionsIntro}</p>
    <table id="sessions-table" class="stack"><thead><tr><th scope="col">${text.colBrowser}</th><th scope="col">${text.colCreated}</th><th scope="col">${text.colLastActive}</th><th scope="col"><span class="visually-hidden">${account.colActions}</span></th></tr></thead><tbody>${sessionRows}</tbody></table>
    ${
      others.length
        ? html`<form method="post" action="${SETTINGS_PATHS.othersSignOut}" id="sign-out-others">${csrf}<button type="submit" class="secondary">${text.signOutOthers}</button></form>`
        : html`<p id="no-other-sessions" class="muted">${text.onlyThisSession}</p>`
    }</section>`;

  const notifications = html`<section id="notifications"><h2>${text.notificationsTitle}</h2>
    <form method="post" action="${SETTINGS_PATHS.notifications}" id="notifications-form">${csrf}
      <fieldset><legend>${text.emailAlertsLegend}</legend>${EMAIL_KINDS.map(
        (kind) =>
          html`<p class="check"><input type="checkbox" id="email-${kind}" name="${kind}" value="on"${input.emailPreferences[kind] ? new SafeHtml(' checked') : ''}> <label for="email-${kind}">${text.emailKinds[kind]}</label></p>`,
      )}</fieldset>
      <button type="submit" id="save-notifications">${text.saveNotifications}</button></form>
    <p><a href="${SETTINGS_PATHS.webhooks}" id="notifications-link">${text.webhooksLink}</a></p>
    <p><a href="${SETTINGS_PATHS.alertDestinations}" id="alert-destinations-link">${text.destinationsLink}</a></p></section>`;

  return layout(
    text.title,
    html`<h1>${text.title}</h1>${toc}
      ${input.notice ? html`<p class="notice" role="status" id="settings-notice">${text.notices[input.notice]}</p>` : html``}
      ${profile}${email}${password}${sessions}${notifications}${tokensSection(input)}
      ${appsSection({ apps: input.apps, csrf: input.csrf, locale, mcpUrl: input.mcpUrl })}
      <section id="data"><h2>${text.dataTitle}</h2><p>${text.dataIntro}</p>
      <p><a href="${SETTINGS_PATHS.data}" id="data-link">${text.dataLink}</a></p></section>`,
    { ...input.chrome, head: input.newToken ? copyScriptTag() : undefined },
  );
}

/** The personal API tokens: the list, the form (plans with API only) and a new token shown this once. */
function tokensSection(input: SettingsPageInput): SafeHtml {
  const { locale } = input.chrome;
  const text = settingsText(locale);
  const account = accountText(locale);
  const errors = input.errors ?? {};
  const values = input.values ?? {};
  const hasApi = hasFeature(input.plan, 'api');
  const rows = input.tokens.map(
    (token) => html`<tr data-token-id="${token.id}">
      <td class="token-name wide">${token.name}</td><td><code>${token.prefix}…</code></td><td data-label="${account.colCreated}">${when(token.createdAt, locale)}</td>
      <td class="last-used" data-label="${account.colLastUsed}">${token.lastUsedAt ? when(token.lastUsedAt, locale) : account.never}</td><td data-label="${account.colExpires}">${token.expiresAt ? when(token.expiresAt, locale) : account.never}</td>
      <td><form class="inline" method="post" action="${SETTINGS_PATHS.tokenDelete(token.id)}">
        <input type="hidden" name="_csrf" value="${input.csrf}"><button type="submit" class="delete-token secondary" aria-label="${account.deleteTokenNamed(token.name)}">${account.deleteToken}</button></form></td></tr>`,
  );
  const created = input.newToken
    ? html`<div class="notice" id="new-token" role="status"><p><strong>${account.tokenCreated(input.newToken.name)}</strong> ${account.tokenShownOnce}</p>
        <div class="share-row"><label for="new-token-value">${text.newTokenLabel}</label><input id="new-token-value" type="text" readonly value="${input.newToken.value}" spellcheck="false" autocomplete="off">
        <button type="button" class="copy" id="copy-token" data-copy="new-token-value" data-done="${text.copied}" hidden>${text.copyToken}</button></div></div>`
    : html``;
  const plan = hasApi
    ? html`<p>${account.apiIncluded(input.plan.label, input.plan.apiDailyLimit === -1 ? null : input.plan.apiDailyLimit)}</p>`
    : html`<p id="no-api">${text.planNoApi(input.plan.label)} <a href="${SETTINGS_PATHS.plan}" id="plan-link">${text.planLink}</a></p>`;
  const form = hasApi
    ? html`<h3>${account.createToken}</h3>
        <form method="post" action="${SETTINGS_PATHS.tokens}" id="create-token">
          <input type="hidden" name="_csrf" value="${input.csrf}">
          <label for="token-name">${account.tokenName}</label><input id="token-name" name="name" type="text" required maxlength="100" value="${values.token_name ?? ''}"${described(errors, 'token_name', 'token-name')}>${fieldError(errors, 'token_name', 'token-name')}
          <label for="token-expires">${account.tokenExpires}</label><input id="token-expires" name="expires" type="date" value="${values.expires ?? ''}"${described(errors, 'expires', 'token-expires')}>${fieldError(errors, 'expires', 'token-expires')}
          <button type="submit" id="create-token-button">${account.createTokenButton}</button>
        </form>`
    : html``;
  return html`<section id="api-tokens"><h2>${text.apiTitle}</h2>${created}${plan}<p><a href="/docs" id="api-reference">${account.apiReference}</a></p>
    ${
      rows.length
        ? html`<table id="tokens" class="stack"><thead><tr><th scope="col">${account.colName}</th><th scope="col">${account.colToken}</th><th scope="col">${account.colCreated}</th><th scope="col">${account.colLastUsed}</th><th scope="col">${account.colExpires}</th><th scope="col"><span class="visually-hidden">${account.colActions}</span></th></tr></thead><tbody>${rows}</tbody></table>`
        : html`<p id="no-tokens">${account.noTokens}</p>`
    }${form}</section>`;
}
