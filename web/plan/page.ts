import { formatNumber } from '../../core/i18n/locale.ts';
import { isUnlimited, nextPlanUp, planDifferences, type Plan, type ShownLimit } from '../../core/plans.ts';
import type { PlanUsage } from '../../services/plan-usage.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { PLAN_LABELS, type PlanLabels } from './labels.ts';
import { PLAN_PAGE } from './link.ts';

export interface PlanPageInput {
  chrome: Chrome;
  csrf: string;
  plan: Plan;
  usage: PlanUsage;
  /** Plans the form offers; empty when requests are off on this server (no operator address or no SMTP). */
  requestable: Plan[];
  values?: { plan: string; message: string };
  errors?: { plan?: string; message?: string };
  /** Already in the page's language. */
  notice?: { text: string; kind: 'status' | 'error' };
  maxMessage: number;
}

/** The plan page: the plan, each limit beside what is used of it, what the next plan adds, and the upgrade request. */
export function planPage(input: PlanPageInput): string {
  const { plan, usage, chrome } = input;
  const text = PLAN_LABELS[chrome.locale];
  const number = (value: number) => formatNumber(value, chrome.locale);
  const allowed = (limit: number) =>
    isUnlimited(limit) ? text.unlimited : limit === 0 ? text.notIncluded : number(limit);
  const row = (key: keyof PlanLabels['rows'], used: SafeHtml | string, limit: number) =>
    html`<tr id="usage-${key}"><th scope="row">${text.rows[key]}</th><td class="used" data-label="${text.colUsed}">${used}</td><td class="allowed" data-label="${text.colAllowed}">${allowed(limit)}</td></tr>`;
  const pageviews =
    usage.pageviews === null
      ? html`<span id="pageviews-away">${text.pageviewsAway}</span>`
      : usage.pageviews.length === 0
        ? text.noSites
        : html`<ul>${usage.pageviews.map((site) => html`<li data-site-id="${site.siteId}"><span class="url">${site.domain}</span>: ${number(site.pageviews)}</li>`)}</ul>`;
  const notice = input.notice
    ? html`<p class="${input.notice.kind === 'error' ? 'error' : 'notice'}" id="notice" role="${input.notice.kind === 'error' ? 'alert' : 'status'}">${input.notice.text}</p>`
    : html``;
  return layout(
    text.title,
    html`<h1>${text.title}</h1>${notice}
      <section id="current-plan"><p>${text.current(plan.label)}</p><p><a href="/settings">${text.backToSettings}</a></p></section>
      <section id="usage"><h2>${text.usageTitle}</h2>
        <table class="stack"><thead><tr><th scope="col">${text.colLimit}</th><th scope="col">${text.colUsed}</th><th scope="col">${text.colAllowed}</th></tr></thead><tbody>
        ${row('apiDailyLimit', number(usage.apiCallsToday), plan.apiDailyLimit)}
        ${row('hourlyScanLimit', number(usage.scansThisHour), plan.hourlyScanLimit)}
        ${row('maxTargets', number(usage.targets), plan.maxTargets)}
        ${row('maxRumSites', number(usage.rumSites), plan.maxRumSites)}
        ${row('rumMonthlyPageviews', pageviews, plan.rumMonthlyPageviews)}
        </tbody></table></section>
      ${nextPlan(plan, text, allowed)}
      ${requestForm(input, text)}`,
    chrome,
  );
}

function nextPlan(plan: Plan, text: PlanLabels, allowed: (limit: number) => string): SafeHtml {
  const next = nextPlanUp(plan);
  if (!next) return html`<section id="next-plan"><p>${text.largest}</p></section>`;
  const { limits, features } = planDifferences(plan, next);
  const name = (limit: ShownLimit) => text.limitNames[limit];
  return html`<section id="next-plan"><h2>${text.nextTitle(next.label)}</h2><ul>
    ${limits.map((d) => html`<li data-limit="${d.limit}">${name(d.limit)}: ${text.change(allowed(d.from), allowed(d.to))}</li>`)}
    ${features.map((feature) => html`<li data-feature="${feature}">${text.features[feature]}</li>`)}
  </ul></section>`;
}

function requestForm(input: PlanPageInput, text: PlanLabels): SafeHtml {
  if (!input.requestable.length)
    return html`<section id="request"><h2>${text.requestTitle}</h2><p id="request-off">${text.requestOff}</p></section>`;
  const errors = input.errors ?? {};
  const wanted = input.values?.plan ?? nextPlanUp(input.plan)?.key ?? '';
  const invalid = (name: 'plan' | 'message') =>
    errors[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="${name}-error"`) : '';
  const error = (name: 'plan' | 'message') =>
    errors[name] ? html`<p class="error" id="${name}-error">${errors[name]}</p>` : html``;
  return html`<section id="request"><h2>${text.requestTitle}</h2><p>${text.requestIntro}</p>
    <form method="post" action="${PLAN_PAGE}/request" id="request-form"><input type="hidden" name="_csrf" value="${input.csrf}">
      <label for="plan">${text.wanted}</label><select id="plan" name="plan"${invalid('plan')}>${input.requestable.map(
        (p) => html`<option value="${p.key}"${p.key === wanted ? new SafeHtml(' selected') : ''}>${p.label}</option>`,
      )}</select>${error('plan')}
      <label for="message">${text.message}</label><textarea id="message" name="message" rows="4" maxlength="${input.maxMessage}"${invalid('message')}>${input.values?.message ?? ''}</textarea>${error('message')}
      <div><button type="submit" id="send-request">${text.send}</button></div>
    </form></section>`;
}
