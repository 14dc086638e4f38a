import type { Scope } from '../../core/oauth/scopes.ts';
import { html } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { oauthText, scopeText } from './labels.ts';

export interface ConsentPageInput {
  chrome: Chrome;
  csrf: string;
  /** Where the form posts (the interaction's consent address). */
  action: string;
  app: { name: string; clientIdHost: string; verified: boolean };
  redirectHost: string;
  scopes: Scope[];
  user: { name: string; email: string };
}

/** What an app asks for, whom it acts for and where the answer goes; approve or deny. */
export function consentPage(input: ConsentPageInput): string {
  const { locale } = input.chrome;
  const text = oauthText(locale);
  const title = text.consentTitle(input.app.name);
  return layout(
    title,
    html`<section id="consent"><h1>${title}</h1>
      <p>${text.from}: <span class="host" id="client-host">${input.app.clientIdHost}</span></p>
      ${
        input.app.verified
          ? html`<p id="verified">${text.verified}</p>`
          : html`<div class="warning" id="unverified" role="note"><h2>${text.unverifiedTitle}</h2><p>${text.unverified}</p></div>`
      }
      <p>${text.actsFor(input.user.name, input.user.email)}</p>
      <ul id="scopes">${input.scopes.map((scope) => html`<li data-scope="${scope}">${scopeText(scope, locale)}</li>`)}</ul>
      <p>${text.returnsTo} <strong id="redirect-host">${input.redirectHost}</strong>.</p>
      <form method="post" action="${input.action}" class="decision">
        <input type="hidden" name="_csrf" value="${input.csrf}">
        <button type="submit" name="decision" value="approve" id="approve">${text.approve}</button>
        <button type="submit" name="decision" value="deny" id="deny" class="secondary">${text.deny}</button>
      </form>
      <p class="muted">${text.revokeNote} <a href="/settings#apps">${text.apiPage}</a>.</p></section>`,
    input.chrome,
  );
}

/** A user whose plan does not allow apps: why, and the way back to the app (which gets access_denied). */
export function consentRefusedPage(input: {
  chrome: Chrome;
  reason: 'plan';
  planLabel: string;
  continueUrl: string;
}): string {
  const text = oauthText(input.chrome.locale);
  return layout(
    text.refusedTitle,
    html`<section id="consent-refused"><h1>${text.refusedTitle}</h1><p class="error">${text.refused(input.planLabel)}</p>
      <p><a href="${input.continueUrl}" id="back-to-app">${text.backToApp}</a></p>
      <p><a href="/settings/plan">${text.seePlan}</a></p></section>`,
    input.chrome,
  );
}
