import { measuredSteps } from '../../core/flows/flow.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { planLink } from '../plan/link.ts';
import { FLOW_LABELS, type FlowNotice } from './labels.ts';
import { FLOW_PATHS as P, type FlowAllowance, type FlowPageBase, type FlowSummary } from './model.ts';
import { noticeBox, statusBadge, timeOf } from './parts.ts';

export interface FlowListPageModel extends FlowPageBase {
  /** The account's flows, in the order to show them (the store's: newest first, or by name). */
  flows: readonly FlowSummary[];
  allowance: FlowAllowance;
  notice?: FlowNotice;
}

/** The flows: name, start URL, steps, last run; "New flow" and the import while the plan has room. */
export function flowListPage(model: FlowListPageModel): string {
  const { locale } = model.chrome;
  const t = FLOW_LABELS[locale];
  const { allowance } = model;
  const title = html`<h1>${t.listTitle}</h1>${noticeBox(model.notice, locale)}<p>${t.listIntro}</p>`;
  if (allowance.maxFlows === 0) {
    return layout(
      t.listTitle,
      html`${title}<p id="plan-required">${t.planRequired(allowance.planLabel, allowance.upgradeLabel)} ${planLink(locale)}</p>`,
      { ...model.chrome, sheets: ['flows'] },
    );
  }
  const used = model.flows.length;
  const full = allowance.maxFlows !== -1 && used >= allowance.maxFlows;
  const rows = model.flows.map((flow) => {
    const start = flow.definition.steps.find((step) => step.type === 'navigate');
    const run = flow.lastRun;
    return html`<tr data-flow-id="${flow.id}"><th scope="row" class="wide"><a href="${P.flow(flow.id)}">${flow.definition.name}</a></th>
      <td data-label="${t.colStartUrl}" class="url">${start && start.type === 'navigate' ? start.url : '—'}</td>
      <td data-label="${t.colSteps}">${t.stepCount(flow.definition.steps.length, measuredSteps(flow.definition).length)}</td>
      <td data-label="${t.colLastRun}">${
        run
          ? html`<a href="${P.run(flow.id, run.id)}">${statusBadge(run.status, locale)} ${timeOf(run.finishedAt ?? run.requestedAt, locale)}</a>`
          : html`<span class="muted">${t.neverRun}</span>`
      }</td></tr>`;
  });
  const list = rows.length
    ? html`<table id="flows" class="stack"><thead><tr><th scope="col">${t.colName}</th><th scope="col">${t.colStartUrl}</th><th scope="col">${t.colSteps}</th><th scope="col">${t.colLastRun}</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p id="no-flows">${t.noFlows}</p>`;
  const usage =
    allowance.maxFlows === -1
      ? t.allowanceUnlimited(used, allowance.planLabel)
      : t.allowance(used, allowance.maxFlows, allowance.planLabel);
  const body = html`${title}
    <section aria-labelledby="flows-heading"><h2 id="flows-heading">${t.yourFlows}</h2>${list}
      <p id="flow-allowance">${usage}${full ? html` ${t.limitReached} ${planLink(locale)}` : html``}</p>
      ${
        full
          ? html``
          : html`<p class="actions"><a class="button" href="${P.newFlow}" id="new-flow">${t.newFlow}</a> <a class="button secondary" href="${P.newFlow}#import" id="import-flow">${t.importRecording}</a></p>`
      }</section>`;
  return layout(t.listTitle, body, { ...model.chrome, sheets: ['flows'] });
}
