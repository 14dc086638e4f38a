import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { t } from '../text.ts';
import { accountText } from './labels.ts';
import { accountMailText } from './mail-labels.ts';

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
