import type { LighthouseStepMode } from '../../core/flows/flow.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { decide } from '../../core/verdicts/verdict.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout, scorePill } from '../layout.ts';
import { delta, signed } from '../scans/compare-page.ts';
import { VIEWPORT } from '../scans/report-details.ts';
import { verdictText } from '../scans/labels.ts';
import { FLOW_LABELS } from './labels.ts';
import { formatFlowMetric, metricsOf, SCORE_KEYS } from './metrics.ts';
import { FLOW_PATHS as P, type FlowPageBase, type FlowRun } from './model.ts';
import { modeBadge, whenText } from './parts.ts';
import { stepOutcomes, type StepOutcome } from './run-page.ts';

export interface FlowComparePageModel extends FlowPageBase {
  flowId: string;
  /** The earlier run and the later one (the route orders them by requestedAt). */
  before: FlowRun;
  after: FlowRun;
  /** A signed URL of a run's image asset. */
  imageUrl: (run: FlowRun, asset: string) => string;
}

type Outcome = { index: number; mode: LighthouseStepMode; name: string } & StepOutcome;

/** One row of the comparison: the steps of both runs at the same place with the same mode. */
export interface StepPair {
  index: number;
  mode: LighthouseStepMode;
  before: Outcome | null;
  after: Outcome | null;
}

/** The measured steps of both runs matched by index and mode, in step order; a step only one run has is paired with null. */
export function pairSteps(before: FlowRun, after: FlowRun): StepPair[] {
  const pairs = new Map<string, StepPair>();
  const add = (run: FlowRun, side: 'before' | 'after') => {
    for (const outcome of stepOutcomes(run)) {
      const key = `${outcome.index}:${outcome.mode}`;
      const pair = pairs.get(key) ?? { index: outcome.index, mode: outcome.mode, before: null, after: null };
      pair[side] = outcome;
      pairs.set(key, pair);
    }
  };
  add(before, 'before');
  add(after, 'after');
  return [...pairs.values()].sort((a, b) => a.index - b.index || a.mode.localeCompare(b.mode));
}

/**
 * Two runs of one flow, step by step: each step's scores and metrics with their differences, marked better,
 * worse or no significant change by the verdict rules for single values (core/verdicts, the default noise
 * band: a run measures each step once), and both screenshots side by side.
 */
export function flowComparePage(model: FlowComparePageModel): string {
  const { locale } = model.chrome;
  const t = FLOW_LABELS[locale];
  const { before, after } = model;
  const name = after.definition.name;
  const which = (run: FlowRun, label: string) =>
    html`<li><strong>${label}:</strong> <a href="${P.run(model.flowId, run.id)}" aria-label="${t.openRun(label, whenText(run.requestedAt, locale))}">${whenText(run.requestedAt, locale)}</a></li>`;
  const changed = JSON.stringify(before.definition.steps) !== JSON.stringify(after.definition.steps);
  const head = html`<thead><tr><th scope="col"><span class="visually-hidden">${t.metric}</span></th><th scope="col">${t.before}</th><th scope="col">${t.after}</th><th scope="col">${t.difference}</th></tr></thead>`;
  const steps = pairSteps(before, after).map((pair) => pairSection(pair, model, head, locale));
  return layout(
    t.compareTitle,
    html`<a class="back" href="${P.flow(model.flowId)}">← ${name}</a><h1>${t.compareTitle}</h1>
      <section><h2>${t.compareRuns}</h2><ul class="pair">${which(before, t.before)}${which(after, t.after)}</ul>
        ${changed ? html`<p class="notice" role="note" id="definition-changed">${t.definitionChanged}</p>` : html``}
        <p class="muted" id="verdict-rules">${verdictText(locale).rulesNote}</p></section>
      <ol class="flow-steps" id="compare-steps">${steps}</ol>`,
    { ...model.chrome, sheets: ['scan-compare', 'report', 'flows'] },
  );
}

function pairSection(pair: StepPair, model: FlowComparePageModel, head: SafeHtml, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const name = (pair.after ?? pair.before)!.name;
  const heading = html`<h2 id="pair-${pair.index}-${pair.mode}-heading"><span class="step-number">${t.stepNumber(pair.index + 1)}</span> ${modeBadge(pair.mode, locale)} ${name}</h2>`;
  const li = (content: SafeHtml) =>
    html`<li class="flow-step" id="pair-${pair.index}-${pair.mode}" data-index="${pair.index}" data-mode="${pair.mode}" aria-labelledby="pair-${pair.index}-${pair.mode}-heading">${heading}${content}</li>`;
  const a = pair.before?.state === 'measured' ? pair.before.result : null;
  const b = pair.after?.state === 'measured' ? pair.after.result : null;
  if (!a || !b) {
    const only = pair.before && !pair.after ? t.onlyBefore : pair.after && !pair.before ? t.onlyAfter : null;
    return li(html`<p class="muted not-comparable">${only ? html`${only}. ` : html``}${t.notComparable}</p>`);
  }
  const scoreRows = SCORE_KEYS.flatMap((key) => {
    const [x, y] = [a.scores[key], b.scores[key]];
    if (x === null || y === null) return [];
    return [
      html`<tr data-score="${key}"><th scope="row" class="wide">${t.scoreNames[key]}</th><td data-label="${t.before}">${scorePill(x)}</td><td data-label="${t.after}">${scorePill(y)}</td><td>${delta(decide('score', [x], [y]), String, locale)}</td></tr>`,
    ];
  });
  const metricRows = metricsOf(pair.mode).flatMap((metric) => {
    const [x, y] = [a.metrics[metric.key], b.metrics[metric.key]];
    if (x === null || x === undefined || y === null || y === undefined) return [];
    const format = (v: number) => formatFlowMetric(metric, v, locale);
    const change = metric.verdict
      ? delta(decide(metric.verdict, [x], [y]), format, locale)
      : html`<span class="same" data-change="not_judged">${signed(y - x, format)}</span> <small class="muted rule">${t.notJudged}</small>`;
    return [
      html`<tr data-metric="${metric.key}"><th scope="row" class="wide">${metric.label}</th><td data-label="${t.before}">${format(x)}</td><td data-label="${t.after}">${format(y)}</td><td>${change}</td></tr>`,
    ];
  });
  const size = VIEWPORT[model.after.definition.form_factor];
  const shot = (run: FlowRun, asset: string | null, label: string) =>
    asset
      ? html`<figure><img src="${model.imageUrl(run, asset)}" alt="${label}: ${t.screenshot(name)}" width="${size.width}" height="${size.height}" loading="lazy"><figcaption>${label}</figcaption></figure>`
      : html``;
  return li(html`<table class="compare stack">${head}<tbody>${scoreRows}${metricRows}</tbody></table>
    ${a.screenshot || b.screenshot ? html`<div class="shots flow-shots" role="group" aria-label="${t.screenshots}">${shot(model.before, a.screenshot, t.before)}${shot(model.after, b.screenshot, t.after)}</div>` : html``}`);
}
