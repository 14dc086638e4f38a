import { html } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { t } from '../text.ts';
import { scanText } from './labels.ts';
import { type UrlBox, urlBox } from './url-box.ts';

export function homePage(chrome: Chrome, box: UrlBox, notice?: string): string {
  const text = scanText(chrome.locale);
  return layout(
    text.homeTitle,
    html`<h1>${text.homeTitle}</h1>
      <section class="hero"><p>${text.homeIntro}</p>${notice ? html`<p class="information" id="sign-in-notice" role="note">${notice}</p>` : ''}${urlBox(chrome.locale, box)}
        <ul>${text.homePoints.map((point) => html`<li>${point}</li>`)}</ul>
        <p><a class="button" href="/signup">${t(chrome.locale).signUp}</a> <a class="button secondary" href="/login">${t(chrome.locale).signIn}</a></p></section>`,
    { ...chrome, sheets: ['scan-box'] },
  );
}
