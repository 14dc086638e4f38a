import type { FlowFinding, FlowStep, FlowStepResult } from '../../core/flows/flow.ts';
import { measuredSteps } from '../../core/flows/flow.ts';
import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, scorePill } from '../layout.ts';
import { VIEWPORT } from '../scans/report-details.ts';
import { ratedValue, thresholdText } from '../scans/report-ratings.ts';
import { FLOW_LABELS } from './labels.ts';
import { formatFlowMetric, metricsOf, SCORE_KEYS } from './metrics.ts';
import { FLOW_PATHS as P, type FlowPageBase, type FlowRun, type MeasuredStep } from './model.ts';
import { modeBadge, statusBadge, timeOf } from './parts.ts';

export interface FlowRunPageModel extends FlowPageBase {
  flowId: string;
  run: FlowRun;
  /** A signed URL of a run's image asset (FlowStepResult.screenshot, FlowFailure.screenshot), as the report's imageUrl. */
  imageUrl: (asset: string) => string;
}

/** What became of one measured step of a run. */
export type StepOutcome =
  { state: 'measured'; result: FlowStepResult } | { state: 'failed' } | { state: 'not_run' } | { state: 'no_result' };

/**
 * Each measured step of the run's definition with its result. In a failed run a measured step without a
 * result at or before the stop is `failed` (the stop was in it or in its timespan's actions; a stop between
 * two page loads fails none) and every step after the stop `not_run`.
 */
export function stepOutcomes(
  run: Pick<FlowRun, 'definition' | 'steps' | 'failure'>,
): Array<MeasuredStep & StepOutcome> {
  return measuredSteps(run.definition).map((step) => {
    const result = run.steps.find((r) => r.index === step.index && r.mode === step.mode);
    if (result) return { ...step, state: 'measured', result };
    // The run itself failed (no step named): where it stopped is not known, so nothing is blamed on a step.
    if (!run.failure || run.failure.index === null) return { ...step, state: 'no_result' };
    if (step.index > run.failure.index) return { ...step, state: 'not_run' };
    // Still open when the run stopped: the stop was this step, or an action inside its timespan.
    return { ...step, state: 'failed' };
  });
}

/** A step in a few words for the failure line: its type, and its URL or selector where it has one. */
export function stepDescription(step: FlowStep | undefined, locale: Locale): string {
  const t = FLOW_LABELS[locale];
  if (!step) return '';
  const detail = 'url' in step ? step.url : 'selector' in step ? step.selector : 'name' in step ? step.name : '';
  return detail ? `${t.stepTypes[step.type]}: ${detail}` : t.stepTypes[step.type];
}

export function flowRunPage(model: FlowRunPageModel): string {
  const { locale } = model.chrome;
  const t = FLOW_LABELS[locale];
  const { run } = model;
  const name = run.definition.name;
  const header = html`<a class="back" href="${P.flow(model.flowId)}">← ${name}</a>
    <h1>${t.runOf(name)}</h1>
    <p id="run-status">${statusBadge(run.status, locale)} · ${t.formFactors[run.definition.form_factor]} · ${t.started} ${timeOf(run.requestedAt, locale)}${run.finishedAt ? html` · ${t.ended} ${timeOf(run.finishedAt, locale)}` : html``}</p>`;
  const chrome = { ...model.chrome, sheets: ['report', 'flows'] as const };
  if (run.status === 'queued' || run.status === 'running')
    return layout(t.runOf(name), html`${header}<p id="in-progress">${t.inProgress}</p>`, {
      ...chrome,
      head: new SafeHtml('<meta http-equiv="refresh" content="5">'),
    });
  const size = VIEWPORT[run.definition.form_factor];
  const failure = run.failure;
  const failed = !failure
    ? html``
    : failure.index === null
      ? html`<section id="failure" class="flow-failure" data-code="${failure.code}" aria-labelledby="failure-heading"><h2 id="failure-heading" class="error">${t.runFailed}</h2>
        <p><span id="failure-message">${failure.message}</span></p></section>`
      : html`<section id="failure" class="flow-failure" data-code="${failure.code}" aria-labelledby="failure-heading"><h2 id="failure-heading" class="error">${t.failedAt(failure.index + 1, stepDescription(run.definition.steps[failure.index], locale))}</h2>
        <p><strong>${t.failureCodes[failure.code]}</strong>: <span id="failure-message">${failure.message}</span></p>
        ${failure.screenshot ? html`<figure class="flow-shot"><img id="failure-screenshot" src="${model.imageUrl(failure.screenshot)}" alt="${t.failureShot(failure.index + 1)}" width="${size.width}" height="${size.height}" loading="lazy"><figcaption>${t.failureShot(failure.index + 1)}</figcaption></figure>` : html``}</section>`;
  const steps = stepOutcomes(run).map((step) => stepSection(step, model, locale));
  const versions =
    run.lighthouseVersion && run.chromiumVersion
      ? html`<p class="note" id="versions">${t.versions(run.lighthouseVersion, run.chromiumVersion)}</p>`
      : html``;
  return layout(
    t.runOf(name),
    html`${header}${failed}<p class="note">${t.ratingNote}</p><ol class="flow-steps" id="steps">${steps}</ol>${versions}`,
    chrome,
  );
}

function stepSection(step: MeasuredStep & StepOutcome, model: FlowRunPageModel, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const definition = model.run.definition.steps[step.index];
  const url = step.state === 'measured' ? step.result.url : definition?.type === 'navigate' ? definition.url : null;
  const head = html`<h2 id="step-${step.index}-heading"><span class="step-number">${t.stepNumber(step.index + 1)}</span> ${modeBadge(step.mode, locale)} ${step.state === 'measured' ? step.result.name : step.name}</h2>
    ${url ? html`<p class="url">${url}</p>` : html``}`;
  const tag = (state: string, content: SafeHtml) =>
    html`<li class="flow-step step-${state}" id="step-${step.index}" data-state="${state}" data-mode="${step.mode}" aria-labelledby="step-${step.index}-heading">${content}</li>`;
  if (step.state === 'failed') return tag('failed', html`${head}<p class="error">${t.failedHere}</p>`);
  if (step.state === 'not_run') return tag('not-run', html`${head}<p class="muted">${t.notRun}</p>`);
  if (step.state === 'no_result') return tag('no-result', html`${head}<p class="muted">${t.noResult}</p>`);
  const { result } = step;
  const size = VIEWPORT[model.run.definition.form_factor];
  return tag(
    'measured',
    html`${head}
    <div class="flow-step-body"><div>${scoresList(result, locale)}${metricsTable(result, locale)}</div>
      ${result.screenshot ? html`<figure class="flow-shot"><img src="${model.imageUrl(result.screenshot)}" alt="${t.screenshot(result.name)}" width="${size.width}" height="${size.height}" loading="lazy"></figure>` : html``}</div>
    ${findingsList(result.findings, step.index, locale)}`,
  );
}

export function scoresList(result: FlowStepResult, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const shown = SCORE_KEYS.filter((key) => result.scores[key] !== null);
  if (!shown.length) return html``;
  return html`<h3 class="visually-hidden">${t.scores}</h3><ul class="flow-scores">${shown.map(
    (key) => html`<li data-score="${key}">${scorePill(result.scores[key])} ${t.scoreNames[key]}</li>`,
  )}</ul>`;
}

function metricsTable(result: FlowStepResult, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const metrics = metricsOf(result.mode);
  if (!metrics.length) return html`<p class="note">${t.noMetrics}</p>`;
  return html`<table class="flow-metrics"><caption class="visually-hidden">${t.metrics}</caption><thead><tr><th scope="col">${t.metric}</th><th scope="col">${t.value}</th></tr></thead><tbody>${metrics.map(
    (metric) => {
      const value = result.metrics[metric.key];
      const shown =
        value === null || value === undefined
          ? html`<span class="muted">${t.notMeasured}</span>`
          : metric.threshold
            ? ratedValue(metric.threshold, value, locale)
            : html`<span class="rated-value">${formatFlowMetric(metric, value, locale)}</span>`;
      return html`<tr data-metric="${metric.key}"><th scope="row">${metric.label}<br><span class="threshold">${metric.threshold ? thresholdText(metric.threshold, locale) : t.noThreshold}</span></th><td>${shown}</td></tr>`;
    },
  )}</tbody></table>`;
}

/** Keys of an audit's items that name a place on the page or a resource: shown as code. */
const CODE_KEYS = new Set(['url', 'source', 'selector', 'node', 'snippet', 'path']);

function itemLine(item: FlowFinding['items'][number], locale: Locale): SafeHtml {
  const parts = Object.entries(item)
    .filter(([, value]) => value !== null && value !== '')
    .map(([key, value]) =>
      CODE_KEYS.has(key) && typeof value === 'string'
        ? html`<code>${value}</code>`
        : html`<span class="item-value">${key}: ${typeof value === 'number' ? formatNumber(value, locale, 2) : String(value)}</span>`,
    );
  return html`<li>${parts.map((part, i) => html`${i ? ' · ' : ''}${part}`)}</li>`;
}

/**
 * The step's failed or improvable audits: title, score, Lighthouse's display value and the items it names.
 * The report's finding rendering (web/scans/report-details.ts) reads the service's own findings with codes
 * and savings per form factor; a flow step's are Lighthouse's audits, listed here as they come.
 */
function findingsList(findings: readonly FlowFinding[], index: number, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  if (!findings.length) return html`<p class="muted" id="step-${index}-findings">${t.noFindings}</p>`;
  return html`<details class="flow-findings" id="step-${index}-findings"><summary>${t.findings} (${findings.length})</summary><ul>${findings.map(
    (finding) =>
      html`<li class="finding" data-audit="${finding.id}"><strong>${finding.title}</strong>${finding.display_value ? html` <span class="muted">${finding.display_value}</span>` : html``}${
        finding.items.length
          ? html`<ul class="items">${finding.items.map((item) => itemLine(item, locale))}</ul>`
          : html``
      }</li>`,
  )}</ul></details>`;
}
