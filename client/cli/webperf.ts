#!/usr/bin/env node
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createWebPerfClient, unwrap, WebPerfApiError, type paths, type WebPerfClient } from '../index.ts';
import {
  checkBudget,
  CommandError,
  describeCheck,
  parseBudget,
  UsageError,
  type AnyScan,
  type FormFactor,
} from './budget.ts';
import { markdownSummary, resolveBaseline, ruleText, verdictRows, type Baseline, type VerdictRow } from './baseline.ts';
import { compareResults, compareText, parseRegression, resolveOperand } from './compare.ts';
import { budgetFor, loadConfig } from './config.ts';
import { progress } from './progress.ts';
import {
  annotationData,
  failedScanReport,
  githubAnnotations,
  jsonReport,
  junitReport,
  textReport,
  type OutputFormat,
} from './report.ts';

/**
 * webperf: scans, budgets and comparisons from a CI job, over the public REST API only (WEBPERF_URL,
 * WEBPERF_TOKEN). Exit codes: 0 every budget holds, 1 a budget or regression limit failed (or the scan
 * failed), 2 usage or API errors (with the API's message), or --timeout ran out.
 */
const USAGE = `Usage:
  webperf scan URL [--runs N] [--region R] [--budget overall=90,speed=85,lcp=2500,tbt=200,cls=0.1,bytes=1500000]
                   [--config FILE] [--baseline scan:ID|target:ID] [--last N] [--summary FILE]
                   [--form-factor mobile|desktop|both] [--format text|json|junit] [--output FILE] [--force]
                   [--timeout SECONDS] [--quiet]
                   --config: budgets per URL pattern (JSON); --baseline: fail only on a significant regression
                   against a previous scan or a target's last N (default 5) scheduled scans; the Markdown summary
                   goes to $GITHUB_STEP_SUMMARY when set, else to --summary FILE
  webperf compare A B [--max-regression overall=5,lcp=300] [--form-factor mobile|desktop|both] [--format text|json] [--last N]
                   A and B are scan ids; A may be target:ID (the median of that target's last N scheduled scans, default 5)
  webperf targets [--format text|json]
  webperf alerts [--unread] [--format text|json]
  webperf alerts mark-read [ID ...]        (no ids: every unread alert)

Environment: WEBPERF_TOKEN (a personal API token), WEBPERF_URL (the service, e.g. https://perf.example.com).
Exit codes: 0 budgets hold, 1 a budget failed (or the scan failed), 2 usage or API error, or --timeout
(default 900 s) ran out while the scan still ran (it goes on; the line printed says where to find it).
Inside GitHub Actions (GITHUB_ACTIONS=true) failed budgets and regressions are also ::error annotations, written
to stderr (the runner reads workflow commands there too), so stdout stays the report in the chosen format.
Budgets: scores (overall, speed, images, caching, technical, wordpress) are minimums; fcp, lcp, tbt (ms),
cls, bytes, requests (per form factor) and ttfb (ms) are maximums. With --baseline, exit 1 also when a metric is
significantly worse (rank test over runs, else outside the metric's noise band).
`;

/** The deployment's regions, as the generated types know them; the server checks the value either way. */
type Region = NonNullable<paths['/scans']['post']['requestBody']>['content']['application/json']['region'];

/**
 * GitHub Actions workflow commands (`::error …`, `::notice …`) go to stderr: the runner reads them from stderr as
 * well as stdout, and stdout stays the report alone, parseable as JSON or JUnit XML when that is the format.
 */
const annotate = (lines: string): void => {
  if (process.env.GITHUB_ACTIONS === 'true') process.stderr.write(lines);
};

const POLL_START_MS = 3000;
const POLL_MAX_MS = 10_000;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  const client = clientFromEnvironment();
  switch (command) {
    case 'scan':
      return scanCommand(client, rest);
    case 'compare':
      return compareCommand(client, rest);
    case 'targets':
      return targetsCommand(client, rest);
    case 'alerts':
      return alertsCommand(client, rest);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function clientFromEnvironment(): WebPerfClient {
  const token = process.env.WEBPERF_TOKEN;
  const baseUrl = process.env.WEBPERF_URL;
  if (!token) throw new CommandError("WEBPERF_TOKEN is not set (create a token on the service's API page)");
  if (!baseUrl || !/^https?:\/\//.test(baseUrl))
    throw new CommandError("WEBPERF_URL is not set to the service's address (https://…)");
  return createWebPerfClient({
    baseUrl,
    token,
    userAgent: 'webperf-cli/1.0',
    onRetry: ({ status, waitMs }) =>
      process.stderr.write(`webperf: the API answered ${status}; retrying in ${Math.ceil(waitMs / 1000)} s\n`),
  });
}

const formFactorsOf = (value: string | undefined): FormFactor[] => {
  if (value === undefined || value === 'both') return ['desktop', 'mobile'];
  if (value === 'desktop' || value === 'mobile') return [value];
  throw new UsageError(`--form-factor must be mobile, desktop or both, not "${value}"`);
};

const formatOf = (value: string | undefined, allowed: readonly OutputFormat[]): OutputFormat => {
  const format = (value ?? 'text') as OutputFormat;
  if (!allowed.includes(format)) throw new UsageError(`--format must be ${allowed.join(', ')}, not "${value}"`);
  return format;
};

const positiveInteger = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`${name} must be a positive whole number, not "${value}"`);
  return Number(value);
};

async function scanCommand(client: WebPerfClient, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      runs: { type: 'string' },
      region: { type: 'string' },
      budget: { type: 'string' },
      'form-factor': { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string' },
      force: { type: 'boolean' },
      timeout: { type: 'string' },
      quiet: { type: 'boolean' },
      config: { type: 'string' },
      baseline: { type: 'string' },
      last: { type: 'string' },
      summary: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('scan takes one URL');
  const config = values.config === undefined ? null : loadConfig(values.config);
  const budget = budgetFor(config, positionals[0]!, values.budget === undefined ? {} : parseBudget(values.budget));
  const last = positiveInteger(values.last, '--last') ?? 5;
  // Before the scan: a baseline that cannot be read should not cost a scan.
  const baseline = values.baseline === undefined ? null : await resolveBaseline(client, values.baseline, last);
  const formFactors = formFactorsOf(values['form-factor']);
  const format = formatOf(values.format, ['text', 'json', 'junit']);
  const runs = positiveInteger(values.runs, '--runs');
  const timeoutMs = (positiveInteger(values.timeout, '--timeout') ?? 900) * 1000;

  const created = unwrap(
    await client.POST('/scans', {
      body: {
        url: positionals[0]!,
        ...(runs ? { runs } : {}),
        ...(values.region ? { region: values.region as Region } : {}),
        ...(values.force ? { force: true } : {}),
      },
    }),
  ).data;
  const scan = await waitForScan(client, created.id, timeoutMs, values.quiet ?? false);
  if (scan.status === 'failed') {
    writeReport(values.output, format, (as) => failedScanReport(scan, as));
    annotate(
      `::error title=webperf::${annotationData(`scan of ${scan.submitted_url} failed: ${scan.error.message}`)}\n`,
    );
    return 1;
  }
  if (scan.status !== 'finished') throw new CommandError('unexpected scan state');
  const checks = checkBudget(budget, scan.result, formFactors);
  const against = baseline && { label: baseline.label, rows: verdictRows(baseline, scan.result, formFactors) };
  writeReport(values.output, format, (as) =>
    as === 'json'
      ? jsonReport(scan, checks, against)
      : as === 'junit'
        ? junitReport(scan, checks, against)
        : textReport(scan, formFactors, checks, against),
  );
  annotate(githubAnnotations(scan, checks));
  if (against) annotate(regressionAnnotations(scan.result.final_url, against.label, against.rows));
  writeSummary(values.summary, scan, checks, baseline, against?.rows ?? []);
  const regressed = (against?.rows ?? []).some((row) => row.decision.verdict === 'worse');
  return checks.every((check) => check.passed) && !regressed ? 0 : 1;
}

const regressionAnnotations = (url: string, baseline: string, rows: VerdictRow[]): string =>
  rows
    .filter((row) => row.decision.verdict === 'worse')
    .map(
      (row) =>
        `::error title=Performance regression::${annotationData(`${row.name} significantly worse than ${baseline} on ${url} (${ruleText(row)})`)}\n`,
    )
    .join('');

/** The Markdown summary: appended to $GITHUB_STEP_SUMMARY inside GitHub Actions, else written to --summary FILE. */
function writeSummary(
  path: string | undefined,
  scan: Extract<AnyScan, { status: 'finished' }>,
  checks: ReturnType<typeof checkBudget>,
  baseline: Baseline | null,
  rows: VerdictRow[],
): void {
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  if (!stepSummary && !path) return;
  const markdown = markdownSummary({
    url: scan.result.final_url,
    reportUrl: scan.report_url,
    baseline: baseline?.label ?? null,
    budgets: checks.map((check) => ({ text: describeCheck(check), passed: check.passed })),
    rows,
  });
  if (stepSummary) appendFileSync(stepSummary, markdown);
  else writeFileSync(path!, markdown);
}

/** The report in `format` to `output` (with the text version on stdout for a machine format), or to stdout. */
function writeReport(output: string | undefined, format: OutputFormat, render: (as: OutputFormat) => string): void {
  if (!output) {
    process.stdout.write(render(format));
    return;
  }
  writeFileSync(output, render(format));
  if (format !== 'text') process.stdout.write(render('text'));
}

async function waitForScan(client: WebPerfClient, id: string, timeoutMs: number, quiet: boolean): Promise<AnyScan> {
  const shown = progress(process.stderr, `scan ${id}`, quiet);
  const started = Date.now();
  const deadline = started + timeoutMs;
  try {
    for (let wait = POLL_START_MS; ; wait = Math.min(POLL_MAX_MS, Math.round(wait * 1.3))) {
      const scan = unwrap(await client.GET('/scans/{id}', { params: { path: { id } } })).data;
      shown.update(scan.status);
      if (scan.status === 'finished' || scan.status === 'failed') return scan;
      const left = deadline - Date.now();
      if (left <= 0) {
        const waited = Math.round((Date.now() - started) / 1000);
        // Not a usage error (the command was right): one line, exit 2 all the same (no verdict on the budgets).
        throw new CommandError(
          `gave up waiting for scan ${id} after ${waited} s (--timeout ${Math.round(timeoutMs / 1000)}); it is still ${scan.status} on the service: see ${scan.report_url} (the same command again, without --force, picks up this scan or its result)`,
        );
      }
      // The last poll falls on the deadline itself, so the whole --timeout is waited.
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  } finally {
    shown.done();
  }
}

async function compareCommand(client: WebPerfClient, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'max-regression': { type: 'string' },
      'form-factor': { type: 'string' },
      format: { type: 'string' },
      last: { type: 'string' },
    },
  });
  if (positionals.length !== 2) throw new UsageError('compare takes two operands: A B');
  const limits = values['max-regression'] === undefined ? {} : parseRegression(values['max-regression']);
  const formFactors = formFactorsOf(values['form-factor']);
  const format = formatOf(values.format, ['text', 'json']);
  const last = positiveInteger(values.last, '--last') ?? 5;
  const [a, b] = await Promise.all(positionals.map((operand) => resolveOperand(client, operand, last)));
  const comparison = compareResults(a!, b!, formFactors, limits);
  process.stdout.write(format === 'json' ? `${JSON.stringify(comparison, null, 2)}\n` : compareText(comparison));
  for (const row of comparison.rows.filter((r) => r.passed === false))
    annotate(`::error title=Performance regression::${row.name} regressed by ${row.regression} (limit ${row.limit})\n`);
  return comparison.passed ? 0 : 1;
}

async function targetsCommand(client: WebPerfClient, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { format: { type: 'string' } } });
  const format = formatOf(values.format, ['text', 'json']);
  const targets = [];
  for (let page = 1; ; page++) {
    const body = unwrap(await client.GET('/domains', { params: { query: { page, limit: 50 } } }));
    targets.push(...body.data);
    if (page >= (body.meta?.last_page ?? page)) break;
  }
  if (format === 'json') process.stdout.write(`${JSON.stringify(targets, null, 2)}\n`);
  else
    for (const target of targets)
      process.stdout.write(
        `${target.id}\t${target.is_active ? 'active' : 'paused'}\t${target.region}\t${target.last_dispatched_at ?? 'never'}\t${target.url}\n`,
      );
  return 0;
}

async function alertsCommand(client: WebPerfClient, args: string[]): Promise<number> {
  if (args[0] === 'mark-read') {
    const ids = args.slice(1).map((id) => positiveInteger(id, 'an alert id')!);
    const marked = unwrap(await client.POST('/alerts/mark-read', { body: ids.length ? { ids } : {} })).data;
    process.stdout.write(`${marked.marked_read} alert${marked.marked_read === 1 ? '' : 's'} marked read\n`);
    return 0;
  }
  const { values } = parseArgs({ args, options: { format: { type: 'string' }, unread: { type: 'boolean' } } });
  const format = formatOf(values.format, ['text', 'json']);
  const alerts = [];
  for (let page = 1; ; page++) {
    const body = unwrap(
      await client.GET('/alerts', {
        params: { query: { page, limit: 50, ...(values.unread ? { status: 'unread' as const } : {}) } },
      }),
    );
    alerts.push(...body.data);
    if (page >= (body.meta?.last_page ?? page)) break;
  }
  if (format === 'json') process.stdout.write(`${JSON.stringify(alerts, null, 2)}\n`);
  else
    for (const alert of alerts)
      process.stdout.write(
        `${alert.id}\t${alert.severity}\t${alert.is_read ? 'read' : 'unread'}\t${alert.created_at}\t${alert.message}\n`,
      );
  return 0;
}

/**
 * A 429's second line: which limit (as the body says, never assumed), its size, and when it lets the next call
 * through (`reset_at`, else `Retry-After`). Under the API's own message, which the first line carries.
 */
function rateLimitLine(error: WebPerfApiError): string {
  const { kind, max } = error.rateLimit!;
  const name =
    kind === 'hourly_scans'
      ? 'the hourly scan limit'
      : kind === 'daily_requests'
        ? 'the daily API request limit'
        : 'the limit';
  const size =
    max === null
      ? ''
      : kind === 'hourly_scans'
        ? ` (${max} scans per hour)`
        : kind === 'daily_requests'
          ? ` (${max} requests a day)`
          : ` (${max})`;
  const retryAfter = error.retryAfterSeconds === null ? '' : `Retry-After: ${error.retryAfterSeconds} s`;
  // The hourly limit is a sliding hour: at reset_at the oldest scan in it leaves, making room for one more.
  const when = kind === 'hourly_scans' ? 'allows the next scan at' : 'resets at';
  if (error.resetAt)
    return `  ${name}${size} ${when} ${error.resetAt.toISOString()}${retryAfter && ` (${retryAfter})`}`;
  return `  ${name}${size} was reached${retryAfter && `; ${retryAfter}`}`;
}

function explain(error: unknown): string {
  if (error instanceof WebPerfApiError) {
    const details = [
      ...Object.entries(error.fieldErrors).map(([field, messages]) => `  ${field}: ${messages.join(' ')}`),
      ...(error.requiredPlan ? [`  needs the ${error.requiredPlan} plan`] : []),
      ...(error.rateLimit ? [rateLimitLine(error)] : []),
      ...(error.retryAfterSeconds !== null && !error.rateLimit ? [`  retry after ${error.retryAfterSeconds} s`] : []),
    ];
    return [`webperf: the API answered ${error.status}: ${error.message}`, ...details].join('\n');
  }
  if (error instanceof CommandError) return `webperf: ${error.message}`;
  if (error instanceof UsageError) return `webperf: ${error.message}\n\n${USAGE}`;
  if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
    return `webperf: ${(error as Error).message}\n\n${USAGE}`;
  if (error instanceof TypeError && /fetch failed/.test(error.message))
    return `webperf: could not reach ${process.env.WEBPERF_URL}: ${(error.cause as Error | undefined)?.message ?? error.message}`;
  return `webperf: ${(error as Error).message ?? String(error)}`;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${explain(error)}\n`);
    process.exitCode = 2;
  },
);
