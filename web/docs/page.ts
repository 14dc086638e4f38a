import { html } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { docsText } from './labels.ts';
import { planLink } from '../plan/link.ts';

export interface DocsPageInput {
  documentUrl: string;
  assetVersion: string;
  signedIn: boolean;
  hasApi: boolean;
  /** A token made for this page view (shown nowhere else), or null. */
  token: string | null;
  /** The API's base address (`{base_url}/api/v1`), for the quick start's examples. */
  apiBase: string;
}

/** The reference page: a short frame of our own (what it is, how to try calls), then Swagger UI's rendering. */
export function docsPage(chrome: Chrome, input: DocsPageInput): string {
  const text = docsText(chrome.locale);
  const v = encodeURIComponent(input.assetVersion);
  // Swagger UI builds its layout from <section> elements, which the site's stylesheet draws as cards.
  const head = html`<link rel="stylesheet" href="/docs/assets/swagger-ui.css?v=${v}"><script src="/docs/assets/swagger-ui-bundle.js?v=${v}" defer></script><script src="/docs/assets/docs.js?v=${v}" defer></script>`;
  const tryPanel = !input.signedIn
    ? html`<p id="try-sign-in">${text.trySignIn} <a href="/login?next=%2Fdocs">${text.trySignInLink}</a> ${text.tryOwnToken}</p>`
    : input.token
      ? html`<p id="try-ready" class="notice">${text.tryReady}</p>`
      : html`<form id="try-token" method="post" action="/docs/try-token"><input type="hidden" name="_csrf" value="${chrome.csrf ?? ''}">
          <p>${text.tryExplain}</p>${input.hasApi ? html`` : html`<p class="error">${text.noApi} ${planLink(chrome.locale)}</p>`}<button type="submit">${text.tryButton}</button></form>`;
  const quickStart = html`<section id="quick-start" aria-labelledby="quick-start-title"><h2 id="quick-start-title">${text.quickStartTitle}</h2><ol>
    <li>${text.quickStartToken} <a href="/settings#api-tokens">${text.quickStartSettings}</a> ${text.quickStartTokenAfter}</li>
    <li>${text.quickStartCall}<pre class="code" tabindex="0"><code id="quick-start-me">curl -H "Authorization: Bearer $TOKEN" ${input.apiBase}/me</code></pre></li>
    <li>${text.quickStartScan}<pre class="code" tabindex="0"><code id="quick-start-scan">curl -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d '{"url": "https://example.com"}' ${input.apiBase}/scans</code></pre></li></ol></section>`;
  const body = html`<section id="docs-intro"><h1>${text.title}</h1><p>${text.intro}</p>${quickStart}
    <p><a href="${input.documentUrl}">${text.document}</a> (<code>${input.documentUrl}</code>)</p>
    <h2>${text.tryTitle}</h2>${tryPanel}</section>
    <noscript><p>${text.noScript} <a href="${input.documentUrl}">${input.documentUrl}</a></p></noscript>
    <div id="swagger-ui" class="reference" data-document="${input.documentUrl}" ${input.token ? html`data-token="${input.token}"` : ''}></div>`;
  return layout(text.title, body, { ...chrome, head });
}
