import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { accountText } from './labels.ts';
import { accountMailText } from './mail-labels.ts';
import type { FormErrors } from './pages.ts';

const fieldError = (errors: FormErrors, name: string) =>
  errors[name] ? html`<p class="error field-error" id="${name}-error">${errors[name]}</p>` : html``;
const described = (errors: FormErrors, name: string) =>
  errors[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="${name}-error"`) : '';
const formError = (errors: FormErrors) =>
  errors.form ? html`<p class="error" id="form-error" role="alert">${errors.form}</p>` : html``;

/** A page that only says something: a heading, the message, and where to go next. */
export function messagePage(
  chrome: Chrome,
  title: string,
  message: string,
  links: Array<{ href: string; label: string; id: string }> = [],
): string {
  return layout(
    title,
    html`<section><h1>${title}</h1><p id="message">${message}</p>${links.map(
      (link) => html`<p><a href="${link.href}" id="${link.id}">${link.label}</a></p>`,
    )}</section>`,
    chrome,
  );
}

export function forgotPage(chrome: Chrome, csrf: string, email = '', errors: FormErrors = {}): string {
  const text = accountMailText(chrome.locale);
  return layout(
    text.forgotTitle,
    html`<section><h1>${text.forgotTitle}</h1>${formError(errors)}<p>${text.forgotIntro}</p>
      <form method="post" action="/password/forgot">
        <input type="hidden" name="_csrf" value="${csrf}">
        <label for="email">${accountText(chrome.locale).email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"${described(errors, 'email')}>${fieldError(errors, 'email')}
        <button type="submit" id="send-reset">${text.sendLink}</button>
      </form></section>`,
    chrome,
  );
}

export function resetPage(chrome: Chrome, csrf: string, token: string, errors: FormErrors = {}): string {
  const text = accountMailText(chrome.locale);
  return layout(
    text.resetTitle,
    html`<section><h1>${text.resetTitle}</h1>${formError(errors)}
      <form method="post" action="/password/reset">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="token" value="${token}">
        <label for="password">${text.newPassword}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="12"${described(errors, 'password')}>${fieldError(errors, 'password')}
        <button type="submit" id="set-password">${text.setPassword}</button>
      </form></section>`,
    chrome,
  );
}

export function emailChangePage(
  chrome: Chrome,
  csrf: string,
  currentEmail: string,
  newEmail = '',
  errors: FormErrors = {},
): string {
  const text = accountMailText(chrome.locale);
  return layout(
    text.emailTitle,
    html`<section><h1>${text.emailTitle}</h1>${formError(errors)}<p>${text.emailIntro(currentEmail)}</p>
      <form method="post" action="/account/email">
        <input type="hidden" name="_csrf" value="${csrf}">
        <label for="email">${text.newEmail}</label><input id="email" name="email" type="email" autocomplete="email" required value="${newEmail}"${described(errors, 'email')}>${fieldError(errors, 'email')}
        <label for="password">${text.currentPassword}</label><input id="password" name="password" type="password" autocomplete="current-password" required${described(errors, 'password')}>${fieldError(errors, 'password')}
        <button type="submit" id="change-email">${text.changeEmail}</button>
      </form></section>`,
    chrome,
  );
}

/**
 * The verification link's page: the verifier chooses the account's password (whoever signed up with the address
 * may know the old one). Opening it changes nothing; the form does.
 */
export function verifyPage(chrome: Chrome, csrf: string, token: string, errors: FormErrors = {}): string {
  const text = accountMailText(chrome.locale);
  return layout(
    text.confirmVerifyTitle,
    html`<section><h1>${text.confirmVerifyTitle}</h1>${formError(errors)}<p id="message">${text.confirmVerify}</p>
      <form method="post" action="/email/verify">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="token" value="${token}">
        <label for="password">${text.newPassword}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="12"${described(errors, 'password')}>${fieldError(errors, 'password')}
        <button type="submit" id="confirm-address">${text.confirmVerifyButton}</button>
      </form></section>`,
    chrome,
  );
}

/**
 * What a link from a mail opens: a button that does it. Opening the link changes nothing, so a mail scanner
 * that follows links ahead of the reader neither uses the link up nor gets a session.
 */
export function confirmLinkPage(
  chrome: Chrome,
  csrf: string,
  link: { action: string; token: string; title: string; intro: string; button: string; id: string },
): string {
  return layout(
    link.title,
    html`<section><h1>${link.title}</h1><p id="message">${link.intro}</p>
      <form method="post" action="${link.action}">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="token" value="${link.token}">
        <button type="submit" id="${link.id}">${link.button}</button>
      </form></section>`,
    chrome,
  );
}

/** The banner on every signed-in page of an unverified account, with "Send the link again". */
export function verifyBanner(chrome: Pick<Chrome, 'locale' | 'path'>, email: string, csrf: string): SafeHtml {
  const text = accountMailText(chrome.locale);
  return html`<section class="notice" id="verify-banner" aria-label="${text.sendAgain}"><p>${text.bannerText(email)}</p>
    <form class="inline" method="post" action="/account/verify/resend"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="next" value="${chrome.path ?? '/'}"><button type="submit" class="secondary" id="send-again">${text.sendAgain}</button></form></section>`;
}
