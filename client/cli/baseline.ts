import { unwrap, type WebPerfClient } from '../index.ts';
import { CommandError, formatValue, UsageError, type FinishedScan, type FormFactor } from './budget.ts';
import { ALPHA, decide, HISTORY_SCANS, learnBand, type Decision, type VerdictMetric } from './verdicts/verdict.ts';

type ApiResult = FinishedScan['result'];
type RunField = 'fcp_ms' | 'lcp_ms' | 'si_ms' | 'tbt_ms' | 'cls';

/**
 * What the new scan is judged against: a previous scan (its runs when it had several), or a target's latest
 * scheduled scans (one median value per scan, oldest first), which also give the noise band of single values.
 */
export interface Baseline {
  label: string;
  kind: 'scan' | 'target';
  results: ApiResult[];
}

export interface VerdictRow {
  /** `overall`, `lcp (mobile)` */
  name: string;
  metric: VerdictMetric;
  unit: string;
  decision: Decision;
}

/** `scan:<id>` or `target:<id>`. */
export function parseBaseline(text: string): { kind: 'scan' | 'target'; id: string } {
  const match = /^(scan):([0-9a-z]{26})$|^(target):([1-9][0-9]{0,14})$/.exec(text);
  if (!match) throw new UsageError(`--baseline must be scan:<scan id> or target:<target id>, not "${text}"`);
  return match[1] ? { kind: 'scan', id: match[2]! } : { kind: 'target', id: match[4]! };
}

export async function resolveBaseline(client: WebPerfClient, text: string, last: number): Promise<Baseline> {
  const { kind, id } = parseBaseline(text);
  if (kind === 'scan') {
    const scan = unwrap(await client.GET('/scans/{id}', { params: { path: { id } } })).data;
    if (scan.status !== 'finished') throw new CommandError(`baseline scan ${id} is ${scan.status}, not finished`);
    return { label: `scan ${id}`, kind, results: [scan.result] };
  }
  const targetId = Number(id);
  const ids: string[] = [];
  for (let page = 1; ids.length < last; page++) {
    const body = unwrap(await client.GET('/scans', { params: { query: { page, limit: 50, status: 'finished' } } }));
    for (const scan of body.data)
      if (scan.target_id === targetId && scan.trigger === 'schedule' && ids.length < last) ids.push(scan.public_id);
    if (page >= (body.meta?.last_page ?? page)) break;
  }
  if (ids.length === 0) throw new CommandError(`target ${targetId} has no finished scheduled scan to compare with`);
  const results: ApiResult[] = [];
  // The list is newest first; the history reads oldest first.
  for (const scanId of ids.reverse()) {
    const scan = unwrap(await client.GET('/scans/{id}', { params: { path: { id: scanId } } })).data;
    if (scan.status === 'finished') results.push(scan.result);
  }
  const n = results.length;
  return { label: `target ${targetId} (its last ${n} scheduled scan${n === 1 ? '' : 's'})`, kind, results };
}

const SCORES = ['overall', 'speed', 'images', 'caching', 'technical', 'wordpress'] as const;
const PER_FORM_FACTOR: Array<{
  key: string;
  field: RunField | 'request_count' | 'total_bytes';
  metric: VerdictMetric;
  unit: string;
}> = [
  { key: 'fcp', field: 'fcp_ms', metric: 'fcp', unit: 'ms' },
  { key: 'lcp', field: 'lcp_ms', metric: 'lcp', unit: 'ms' },
  { key: 'si', field: 'si_ms', metric: 'si', unit: 'ms' },
  { key: 'tbt', field: 'tbt_ms', metric: 'tbt', unit: 'ms' },
  { key: 'cls', field: 'cls', metric: 'cls', unit: '' },
  { key: 'requests', field: 'request_count', metric: 'requests', unit: 'requests' },
  { key: 'bytes', field: 'total_bytes', metric: 'bytes', unit: 'bytes' },
];

/** The runs a verdict counts: those the machine was not too busy for, unless every one was. */
function runsOf(result: ApiResult, formFactor: FormFactor) {
  const runs = result.runs?.[formFactor] ?? [];
  const calm = runs.filter((run) => !run.overloaded);
  return calm.length ? calm : runs;
}

function medianOf(result: ApiResult, formFactor: FormFactor, field: RunField | 'request_count' | 'total_bytes') {
  if (field !== 'si_ms') return result.metrics[formFactor][field];
  return result.runs?.[formFactor]?.find((run) => run.median)?.si_ms ?? null;
}

/** Each metric's verdict: the new scan's runs (or its one value) against the baseline's. */
export function verdictRows(baseline: Baseline, after: ApiResult, formFactors: readonly FormFactor[]): VerdictRow[] {
  const rows: VerdictRow[] = [];
  const history = baseline.results.slice(-HISTORY_SCANS);
  const judge = (
    name: string,
    metric: VerdictMetric,
    unit: string,
    sample: (r: ApiResult, all: boolean) => number[],
  ) => {
    // A scan baseline contributes its runs; a target baseline one value per scan, which are also its history.
    const before = baseline.kind === 'scan' ? sample(history[0]!, true) : history.flatMap((r) => sample(r, false));
    const now = sample(after, true);
    if (!before.length || !now.length) return;
    const band = baseline.kind === 'target' ? learnBand(metric, before) : null;
    rows.push({ name, metric, unit, decision: decide(metric, before, now, band) });
  };
  for (const key of SCORES) {
    if (after.scores[key] === undefined) continue;
    judge(key, 'score', '', (r, all) => {
      const runs = r.runs?.overall ?? [];
      if (key === 'overall' && all && runs.length > 1) return runs;
      return r.scores[key] === undefined ? [] : [r.scores[key]];
    });
  }
  judge('ttfb', 'ttfb', 'ms', (r) => [r.metrics.ttfb_ms]);
  for (const formFactor of formFactors)
    for (const { key, field, metric, unit } of PER_FORM_FACTOR)
      judge(`${key} (${formFactor})`, metric, unit, (r, all) => {
        const runs = runsOf(r, formFactor);
        if (all && field !== 'request_count' && field !== 'total_bytes' && runs.length > 1)
          return runs.map((run) => run[field]);
        const value = medianOf(r, formFactor, field);
        return value === null ? [] : [value];
      });
  return rows;
}

const signed = (value: number, unit: string) =>
  value === 0 ? '±0' : `${value > 0 ? '+' : '-'}${formatValue(Math.abs(value), unit)}`;

/** The rule that decided, with its numbers: `rank test, 3 vs 3 runs: p = 0.05, shift +450 ms`. */
export function ruleText(row: VerdictRow): string {
  const d = row.decision;
  if (d.rule === 'noise_band')
    return `noise band ±${formatValue(d.band, row.unit)} (${d.source.kind === 'history' ? `learned from ${d.source.scans} scans` : 'default'})`;
  const p = d.p < 0.001 ? 'p < 0.001' : `p = ${Number(d.p.toFixed(3))}`;
  const floor =
    d.p <= ALPHA && Math.abs(d.shift) < d.floor ? `, under the ${formatValue(d.floor, row.unit)} floor` : '';
  return `rank test, ${d.before.n} vs ${d.after.n}: ${p}, shift ${signed(d.shift, row.unit)}${floor}`;
}

export const VERDICT_WORDS = { better: 'better', worse: 'WORSE', no_significant_change: 'no significant change' };

/** One line per metric for the text report. */
export function verdictLines(baseline: string, rows: VerdictRow[]): string[] {
  const lines = ['', `Against ${baseline}:`];
  for (const row of rows) {
    const d = row.decision;
    lines.push(
      `  ${row.name.padEnd(18)} ${formatValue(d.before.median, row.unit).padStart(14)} → ${formatValue(d.after.median, row.unit).padEnd(14)} ${VERDICT_WORDS[d.verdict]}  (${ruleText(row)})`,
    );
  }
  const worse = rows.filter((row) => row.decision.verdict === 'worse').length;
  lines.push(
    '',
    worse ? `${worse} metric${worse === 1 ? '' : 's'} significantly worse.` : 'No significant regression.',
  );
  return lines;
}

const SHAPES = { better: '✅', worse: '❌', no_significant_change: '➖' };
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The Markdown summary: budgets, then the verdict per metric against the baseline. */
export function markdownSummary(input: {
  url: string;
  reportUrl: string;
  baseline: string | null;
  budgets: Array<{ text: string; passed: boolean }>;
  rows: VerdictRow[];
}): string {
  const lines = [`### webperf: ${cell(input.url)}`, '', `[Report](${input.reportUrl})`, ''];
  if (input.budgets.length) {
    lines.push('| budget | result |', '|---|---|');
    for (const b of input.budgets) lines.push(`| ${cell(b.text)} | ${b.passed ? '✅ pass' : '❌ fail'} |`);
    lines.push('');
  }
  if (input.baseline) {
    lines.push(
      `Against ${cell(input.baseline)}:`,
      '',
      '| metric | before | after | verdict | rule |',
      '|---|---:|---:|---|---|',
    );
    for (const row of input.rows) {
      const d = row.decision;
      lines.push(
        `| ${cell(row.name)} | ${formatValue(d.before.median, row.unit)} | ${formatValue(d.after.median, row.unit)} | ${SHAPES[d.verdict]} ${VERDICT_WORDS[d.verdict].toLowerCase()} | ${cell(ruleText(row))} |`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
