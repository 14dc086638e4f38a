import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { dataText } from './data-labels.ts';

export type DataFormErrors = { password?: string; confirmation?: string; form?: string };

const fieldError = (errors: DataFormErrors, name: 'password' | 'confirmation') =>
  errors[name] ? html`<p class="error field-error" id="delete-${name}-error">${errors[name]}</p>` : html``;
const described = (errors: DataFormErrors, name: 'password' | 'confirmation') =>
  errors[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="delete-${name}-error"`) : '';

/** /settings/data: the download of everything the account holds, and the deletion of the account. */
export function dataPage(input: {
  chrome: Chrome;
  csrf: string;
  email: string;
  /** What was typed as confirmation, kept after a refusal (the password never is). */
  confirmation?: string;
  errors?: DataFormErrors;
  /** Shown above the download button (the export could not be made). */
  exportError?: string;
}): string {
  const text = dataText(input.chrome.locale);
  const errors = input.errors ?? {};
  return layout(
    text.title,
    html`<h1>${text.title}</h1>
      <section id="export"><h2>${text.exportTitle}</h2><p>${text.exportIntro}</p>
        ${input.exportError ? html`<p class="error" id="export-error" role="alert">${input.exportError}</p>` : html``}
        <form method="get" action="/settings/data/export"><button type="submit" id="export-button">${text.exportButton}</button></form>
      </section>
      <section id="delete-account"><h2>${text.deleteTitle}</h2><p>${text.deleteIntro}</p><p>${text.deleteHint}</p>
        ${errors.form ? html`<p class="error" id="delete-form-error" role="alert">${errors.form}</p>` : html``}
        <form method="post" action="/settings/data/delete" id="delete-form">
          <input type="hidden" name="_csrf" value="${input.csrf}">
          <label for="delete-password">${text.password}</label><input id="delete-password" name="password" type="password" autocomplete="current-password" required${described(errors, 'password')}>${fieldError(errors, 'password')}
          <label for="delete-confirmation">${text.confirmation(input.email)}</label><input id="delete-confirmation" name="confirmation" type="text" autocomplete="off" spellcheck="false" required value="${input.confirmation ?? ''}"${described(errors, 'confirmation')}>${fieldError(errors, 'confirmation')}
          <button type="submit" id="delete-button">${text.deleteButton}</button>
        </form>
      </section>`,
    input.chrome,
  );
}

/** After the deletion: signed out, what happens now. */
export function deletedPage(chrome: Chrome): string {
  const text = dataText(chrome.locale);
  return layout(
    text.deletedTitle,
    html`<section id="account-deleted"><h1>${text.deletedTitle}</h1><p>${text.deletedText}</p><p><a href="/">${text.home}</a></p></section>`,
    chrome,
  );
}
