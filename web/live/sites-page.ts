import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { html, SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { ALERT_LABELS } from './alert-labels.ts';
import { LIVE_LABELS } from './labels.ts';
import { LIVE_PATHS as P, type LiveSite, type SitesPageModel } from './model.ts';
import { hiddenCsrf } from './parts.ts';
import { planLink } from '../plan/link.ts';

/** The script that turns the snippets' copy buttons on (script-src 'self'; without it the text is still selectable). */
export const COPY_SCRIPT = `document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button.copy') : null;
  if (!button) return;
  const field = document.getElementById(button.getAttribute('data-copy'));
  if (!field) return;
  field.select();
  const done = () => { button.textContent = button.getAttribute('data-done'); };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, () => document.execCommand('copy') && done());
  else if (document.execCommand('copy')) done();
});
document.querySelectorAll('button.copy[hidden]').forEach((button) => button.removeAttribute('hidden'));
`;

export const copyScriptTag = () => new SafeHtml(`<script src="${P.copyScript}" defer></script>`);

/** The snippet in a read-only box, its copy button (shown once the script runs) and what to do with it. */
export function snippetBlock(site: Pick<LiveSite, 'id' | 'embedSnippet'>, locale: Locale): SafeHtml {
  const t = LIVE_LABELS[locale];
  const id = `snippet-${site.id}`;
  return html`<div class="snippet-row"><label for="${id}">${t.snippet}</label>
    <textarea class="snippet" id="${id}" readonly rows="2" spellcheck="false" aria-describedby="${id}-how">${site.embedSnippet}</textarea>
    <button type="button" class="copy" data-copy="${id}" data-done="${t.copied}" hidden>${t.copy}</button>
    <p class="hint" id="${id}-how">${t.snippetHow}</p></div>`;
}

export function sitesPage(model: SitesPageModel): string {
  const t = LIVE_LABELS[model.locale];
  const chrome = {
    ...model.chrome,
    current: 'live' as const,
    head: copyScriptTag(),
    sheets: ['monitoring', 'live'] as const,
  };
  const notice = model.notice ? html`<p class="notice" role="status" id="notice">${model.notice}</p>` : html``;
  if (model.maxSites === null) {
    return layout(
      t.title,
      html`<h1>${t.title}</h1><p class="lead">${t.intro}</p>
        <section id="upgrade"><h2>${t.upgradeTitle}</h2><p id="plan-required">${t.upgrade(model.planLabel)}</p><p>${t.upgradeHow} ${planLink(model.locale)}</p></section>`,
      chrome,
    );
  }
  const atLimit = model.sites.length >= model.maxSites;
  return layout(
    t.title,
    html`<h1>${t.title}</h1><p class="lead">${t.intro}</p>${notice}
      <section aria-labelledby="sites-heading"><h2 id="sites-heading">${t.yourSites}</h2>
        ${model.sites.length === 0 ? html`<p id="no-sites">${t.noSites}</p>` : html`<ul class="cards" id="sites">${model.sites.map((site) => siteItem(site, model))}</ul>`}
      </section>
      <section aria-labelledby="add-heading" id="add-site"><h2 id="add-heading">${t.addSite}</h2>
        <p id="site-limit">${t.siteLimit(model.sites.length, model.maxSites, model.planLabel)}</p>
        ${atLimit ? html`<p class="error" id="limit-reached">${t.limitReached} ${planLink(model.locale)}</p>` : addForm(model)}
      </section>`,
    chrome,
  );
}

function addForm(model: SitesPageModel): SafeHtml {
  const t = LIVE_LABELS[model.locale];
  const error = model.add?.error;
  const invalid = error
    ? new SafeHtml(' aria-invalid="true" aria-describedby="domain-error domain-hint"')
    : new SafeHtml(' aria-describedby="domain-hint"');
  return html`<form method="post" action="${P.sites}" id="add-site-form">${hiddenCsrf(model.csrf)}
    <label for="domain">${t.domain}</label>
    <input id="domain" name="domain" type="text" inputmode="url" autocomplete="off" spellcheck="false" required maxlength="253" placeholder="www.example.com" value="${model.add?.domain ?? ''}"${invalid}>
    ${error ? html`<p class="error field-error" id="domain-error">${error}</p>` : html``}
    <p class="hint" id="domain-hint">${t.domainHint}</p>
    <button type="submit" class="primary" id="add-site-button">${t.addButton}</button></form>`;
}

function siteItem(site: LiveSite, model: SitesPageModel): SafeHtml {
  const t = LIVE_LABELS[model.locale];
  const locale = model.locale;
  const rateError = model.sampleRateError?.siteId === site.id ? model.sampleRateError : undefined;
  const nameId = `site-${site.id}-domain`;
  return html`<li class="site" id="site-${site.id}" data-site-id="${site.id}" data-active="${String(site.active)}">
    <h3><a class="url" id="${nameId}" href="${P.dashboard(site.id)}">${site.domain}</a></h3>
    <p class="site-meta"><span class="state ${site.active ? 'state-active' : 'state-paused'}">${site.active ? t.active : t.paused}</span> ·
      <span class="pageviews">${t.pageviews(site.pageviewsThisMonth === null ? '—' : formatNumber(site.pageviewsThisMonth, locale), formatNumber(site.monthlyLimit, locale))}</span> ·
      <a href="${P.dashboard(site.id)}" class="dashboard-link" aria-describedby="${nameId}">${t.openDashboard}</a> ·
      <a href="${P.alerts(site.id)}" class="alerts-link" aria-describedby="${nameId}">${ALERT_LABELS[locale].alertsLink(site.alertCount)}</a></p>
    ${snippetBlock(site, locale)}
    <div class="actions">
      <form class="inline" method="post" action="${P.active(site.id)}">${hiddenCsrf(model.csrf)}<input type="hidden" name="active" value="${site.active ? 'false' : 'true'}">
        <button type="submit" class="toggle" aria-label="${site.active ? t.pauseNamed(site.domain) : t.resumeNamed(site.domain)}">${site.active ? t.pause : t.resume}</button></form>
      <details class="sample-rate"${rateError ? html` open` : html``}><summary aria-describedby="${nameId}">${t.settings}</summary>
        <form method="post" action="${P.sampleRate(site.id)}">${hiddenCsrf(model.csrf)}
          <label for="rate-${site.id}">${t.sampleRate}</label>
          <input id="rate-${site.id}" name="sample_rate" type="number" min="1" max="100" step="1" required value="${rateError?.value ?? String(site.sampleRate)}"${
            rateError
              ? new SafeHtml(` aria-invalid="true" aria-describedby="rate-${site.id}-error rate-${site.id}-hint"`)
              : new SafeHtml(` aria-describedby="rate-${site.id}-hint"`)
          }>
          ${rateError ? html`<p class="error field-error" id="rate-${site.id}-error">${rateError.error}</p>` : html``}
          <p class="hint" id="rate-${site.id}-hint">${t.sampleRateHint}</p>
          <button type="submit" class="primary save-rate">${t.saveSampleRate}</button></form></details>
      <details class="remove"><summary aria-describedby="${nameId}">${t.remove}</summary>
        <form method="post" action="${P.remove(site.id)}">${hiddenCsrf(model.csrf)}<p class="url">${t.removeQuestion(site.domain)}</p>
          <button type="submit" class="danger confirm-delete">${t.removeConfirm}</button></form></details>
    </div></li>`;
}
