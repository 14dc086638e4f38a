import {
  describeCheck,
  formatValue,
  type BudgetCheck,
  type FailedScan,
  type FinishedScan,
  type FormFactor,
} from './budget.ts';

import { ruleText, verdictLines, type VerdictRow } from './baseline.ts';

export type OutputFormat = 'text' | 'json' | 'junit';

/** The verdicts against a baseline (`--baseline`), when asked for. */
export type Against = { label: string; rows: VerdictRow[] } | null;

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;
const TOP_FINDINGS = 5;

/** The scan in words: scores, the metrics of each form factor, the top findings, then each budget. */
export function textReport(
  scan: FinishedScan,
  formFactors: readonly FormFactor[],
  checks: BudgetCheck[],
  against: Against = null,
): string {
  const { scores, metrics, findings } = scan.result;
  const lines = [
    `${scan.result.final_url}  (scan ${scan.public_id})`,
    `Report: ${scan.report_url}`,
    '',
    `Scores: overall ${scores.overall} · speed ${scores.speed} · images ${scores.images} · caching ${scores.caching} · technical ${scores.technical}${scores.wordpress === undefined ? '' : ` · wordpress ${scores.wordpress}`}`,
    `TTFB: ${Math.round(metrics.ttfb_ms)} ms`,
  ];
  for (const formFactor of formFactors) {
    const m = metrics[formFactor];
    lines.push(
      `${formFactor.padEnd(7)} FCP ${Math.round(m.fcp_ms)} ms · LCP ${Math.round(m.lcp_ms)} ms · TBT ${Math.round(m.tbt_ms)} ms · CLS ${Number(m.cls.toFixed(3))} · ${m.request_count} requests · ${formatValue(m.total_bytes, 'bytes')}`,
    );
  }
  const top = [...findings]
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
    .slice(0, TOP_FINDINGS);
  if (top.length) {
    lines.push('', `Top findings (${findings.length} in all):`);
    for (const finding of top) lines.push(`  [${finding.severity}] ${finding.title}: ${finding.recommendation}`);
  }
  if (checks.length) {
    lines.push('', 'Budgets:');
    for (const check of checks) lines.push(`  ${check.passed ? 'PASS' : 'FAIL'}  ${describeCheck(check)}`);
    const failed = checks.filter((c) => !c.passed).length;
    lines.push('', failed ? `${failed} of ${checks.length} budgets failed.` : `All ${checks.length} budgets hold.`);
  }
  if (against) lines.push(...verdictLines(against.label, against.rows));
  return `${lines.join('\n')}\n`;
}

export function jsonReport(scan: FinishedScan, checks: BudgetCheck[], against: Against = null): string {
  return `${JSON.stringify(
    {
      scan: scan.public_id,
      url: scan.result.final_url,
      report_url: scan.report_url,
      scores: scan.result.scores,
      metrics: scan.result.metrics,
      findings: scan.result.findings,
      budgets: checks.map((c) => ({
        name: c.name,
        key: c.key,
        form_factor: c.formFactor,
        value: c.value,
        limit: c.limit,
        kind: c.kind,
        passed: c.passed,
      })),
      ...(against
        ? {
            baseline: against.label,
            verdicts: against.rows.map((row) => ({
              name: row.name,
              metric: row.metric,
              ...row.decision,
              rule_text: ruleText(row),
            })),
          }
        : {}),
      passed: checks.every((c) => c.passed) && !against?.rows.some((row) => row.decision.verdict === 'worse'),
    },
    null,
    2,
  )}\n`;
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * JUnit XML: one test case per budget, so CI systems list each budget and show the failing ones; with a baseline
 * also one per metric, failing where it is significantly worse.
 */
export function junitReport(scan: FinishedScan, checks: BudgetCheck[], against: Against = null): string {
  const rows = against?.rows ?? [];
  const failures = checks.filter((c) => !c.passed).length + rows.filter((r) => r.decision.verdict === 'worse').length;
  const tests = checks.length + rows.length;
  const verdictCases = rows.map((row) => {
    const open = `    <testcase classname="webperf.verdict" name="${xml(`${row.name} not worse than ${against!.label}`)}" time="0">`;
    const what = `${row.name} significantly worse: ${ruleText(row)}`;
    return row.decision.verdict === 'worse'
      ? `${open}\n      <failure message="${xml(what)}" type="regression">${xml(`${what} (${scan.report_url})`)}</failure>\n    </testcase>`
      : `${open}</testcase>`;
  });
  const cases = checks.map((check) => {
    const name = xml(`${check.name} ${check.kind === 'min' ? '>=' : '<='} ${formatValue(check.limit, check.unit)}`);
    const open = `    <testcase classname="webperf.budget" name="${name}" time="0">`;
    return check.passed
      ? `${open}</testcase>`
      : `${open}\n      <failure message="${xml(describeCheck(check))}" type="budget">${xml(`${describeCheck(check)} (${scan.report_url})`)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="webperf" tests="${tests}" failures="${failures}">`,
    `  <testsuite name="${xml(`webperf budgets: ${scan.result.final_url}`)}" tests="${tests}" failures="${failures}" errors="0" skipped="0" timestamp="${xml(scan.finished_at)}">`,
    `    <properties><property name="scan" value="${xml(scan.public_id)}"/><property name="report_url" value="${xml(scan.report_url)}"/></properties>`,
    ...cases,
    ...verdictCases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * A scan that failed (the page's answer or the scanner's), in the chosen format: no budget can be judged, so
 * JSON says `passed: false` with the API's error, and JUnit has one failing case for the scan itself.
 */
export function failedScanReport(scan: FailedScan, format: OutputFormat): string {
  const what = `Scan ${scan.public_id} failed: ${scan.error.message} (${scan.error.code})`;
  if (format === 'json') {
    return `${JSON.stringify({ scan: scan.public_id, url: scan.submitted_url, report_url: scan.report_url, status: 'failed', error: scan.error, budgets: [], passed: false }, null, 2)}\n`;
  }
  if (format === 'junit') {
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="webperf" tests="1" failures="1">',
      `  <testsuite name="${xml(`webperf budgets: ${scan.submitted_url}`)}" tests="1" failures="1" errors="0" skipped="0">`,
      `    <properties><property name="scan" value="${xml(scan.public_id)}"/><property name="report_url" value="${xml(scan.report_url)}"/></properties>`,
      `    <testcase classname="webperf.scan" name="scan completes" time="0">`,
      `      <failure message="${xml(what)}" type="scan_failed">${xml(`${what} (${scan.report_url})`)}</failure>`,
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
  }
  return `${what}\nReport: ${scan.report_url}\n`;
}

/** A workflow command's message, escaped as GitHub Actions reads it (`%`, CR and LF). */
export const annotationData = (text: string): string =>
  text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** GitHub Actions workflow commands: an error annotation per failed budget, a notice with the report link. */
export function githubAnnotations(scan: FinishedScan, checks: BudgetCheck[]): string {
  const escape = annotationData;
  const lines = checks
    .filter((c) => !c.passed)
    .map(
      (check) => `::error title=Performance budget::${escape(`${describeCheck(check)} on ${scan.result.final_url}`)}`,
    );
  lines.push(`::notice title=webperf::${escape(`overall ${scan.result.scores.overall}; report ${scan.report_url}`)}`);
  return `${lines.join('\n')}\n`;
}
