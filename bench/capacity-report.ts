/** The Markdown section `npm run bench:capacity` prints and writes into docs/capacity.md. */
import { PLAN_KEYS, PLANS } from '../core/plans.ts';
import { ASSUMPTIONS, type Needs, type UnitCosts } from './capacity-model.ts';
import type { ActionCount } from './temporal-actions.ts';

interface ScanMeasure {
  cpuSeconds: number;
  wallSeconds: number;
  steps: Record<string, { cpu: number; wall: number }>;
  repeats: number;
}

export interface Measured {
  costs: UnitCosts;
  scanCount: number;
  onDemand: ScanMeasure[];
  target: ScanMeasure & { runs: number };
  apiCpuPerScan: number;
  postgresRowBytesPerScan: number;
  lighthouseRowBytesPerScan: number;
  scanActions: ActionCount;
  dispatcher: ActionCount & { runs: number; scansServed: number };
  targetDay: ActionCount;
  webhook: ActionCount;
  alertCheck: ActionCount;
  beacons: { count: number; rows: number; compressed: number; uncompressed: number };
  ingest: { perSecond: number; perCoreSecond: number; cpu: number };
  loadAverage: string;
  seconds: number;
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const n1 = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const n2 = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
/** Decimal units, as disks and clouds bill. */
function bytes(x: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = x;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
const millions = (x: number) => (x >= 1e9 ? `${n1(x / 1e9)} bn` : x >= 1e6 ? `${n1(x / 1e6)} M` : n0(x));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function stepMedian(scans: ScanMeasure[], step: string, pick: 'cpu' | 'wall'): number {
  return median(scans.map((s) => s.steps[step]?.[pick] ?? 0));
}

export function renderCapacity(m: Measured, needs: Needs[]): string {
  const c = m.costs;
  const [onDemand, target] = [c.scans.find((s) => s.runs === 1)!, m.target];
  const perHour = (seconds: number) => n0(3600 / seconds);
  const dispatcherShare = m.dispatcher.actions / m.dispatcher.scansServed;
  const lines: string[] = [];
  const row = (...cells: string[]) => lines.push(`| ${cells.join(' | ')} |`);
  lines.push(
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:capacity\` in ${n0(m.seconds)} s (1-minute load average at the end: ${m.loadAverage.split(' ')[0]}).`,
    '',
    '### Unit costs',
    '',
    '| figure | measured | per unit |',
    '|---|---|---|',
  );
  row(
    `worker CPU of an on-demand scan (desktop + mobile, 1 page load each; median of ${m.scanCount}; loads repeated because the machine was busy: ${m.onDemand.reduce((t, s) => t + s.repeats, 0)})`,
    `${n1(onDemand.cpuSeconds)} s CPU in ${n1(onDemand.wallSeconds)} s wall`,
    `**${perHour(onDemand.cpuSeconds)} scans per worker core-hour**; ${perHour(onDemand.wallSeconds)} per Lighthouse slot-hour`,
  );
  for (const factor of ['desktop', 'mobile'] as const) {
    const cpu = stepMedian(m.onDemand, factor, 'cpu');
    const wall = stepMedian(m.onDemand, factor, 'wall');
    row(
      `&nbsp;&nbsp;of which the ${factor} page load${factor === 'mobile' ? ' (and storing the result)' : ''}`,
      `${n1(cpu)} s CPU in ${n1(wall)} s wall`,
      `${perHour(cpu)} ${factor} loads per core-hour`,
    );
  }
  row(
    '&nbsp;&nbsp;of which before the first load (queue, runner start)',
    `${n1(stepMedian(m.onDemand, 'start', 'cpu'))} s CPU in ${n1(stepMedian(m.onDemand, 'start', 'wall'))} s wall`,
    '',
  );
  row(
    `worker CPU of a target's scheduled scan (Pro: ${target.runs} page loads per form factor; repeated: ${target.repeats})`,
    `${n1(target.cpuSeconds)} s CPU in ${n1(target.wallSeconds)} s wall`,
    `${perHour(target.cpuSeconds)} scans per worker core-hour`,
  );
  row(
    'API process CPU per on-demand scan (its POST, the workflow start)',
    `${(m.apiCpuPerScan * 1000).toFixed(0)} ms`,
    '',
  );
  row(
    'Temporal actions of an on-demand scan',
    `${n1(c.actionsPerOnDemandScan)}`,
    `its workflow ${m.scanActions.actions}, its share of the region dispatcher ${n1(dispatcherShare)} (${m.dispatcher.actions} actions in ${m.dispatcher.runs} run(s) for ${m.dispatcher.scansServed} scans)`,
  );
  row(
    "Temporal actions of a target's scheduled day",
    `${n1(c.actionsPerTargetDay)}`,
    `schedule run 2, its ${m.targetDay.workflows} workflows ${m.targetDay.actions - 2}, dispatcher share ${n1(dispatcherShare)}`,
  );
  row('Temporal actions of a webhook delivery (delivered at the first attempt)', `${c.actionsPerWebhookDelivery}`, '');
  row(
    'Temporal actions of a live-data alert check (no alert changing)',
    `${c.actionsPerAlertCheck}`,
    'every 5 minutes, one per deployment',
  );
  row(
    'Temporal actions of the reconcilers (scans, targets; every 10 minutes each)',
    `${n0(c.fixedActionsPerMonth)} per month`,
    'one per deployment',
  );
  row(
    'Postgres per scan, without the whole Lighthouse results',
    `${n1(c.postgresRowsPerScan)} rows, ${bytes(c.postgresBytesPerScan)} on disk`,
    `${bytes(m.postgresRowBytesPerScan)} of row data; kept without a time limit`,
  );
  row(
    'Postgres per scan: the whole Lighthouse results (gzip)',
    `${bytes(c.lighthouseBytesPerScan)} on disk`,
    `${bytes(m.lighthouseRowBytesPerScan)} of row data; kept for the plan's days`,
  );
  row('images per scan (screenshots, filmstrips)', bytes(c.imageBytesPerScan), 'kept without a time limit');
  row(
    `ClickHouse per million beacons (5 metrics each; ${millions(m.beacons.count)} inserted, merged)`,
    `**${bytes(c.clickhouseBytesPerBeacon * 1e6)}** compressed`,
    `${bytes((m.beacons.uncompressed / m.beacons.count) * 1e6)} uncompressed, ${n0(c.clickhouseBytesPerBeacon)} bytes per beacon`,
  );
  row(
    'ingest: beacons per second per ingest core (3 metrics each, spool fsync on)',
    `**${n0(c.beaconsPerIngestCoreSecond)}**`,
    `${n0(m.ingest.perSecond)} beacons/s reached on ${n1(m.ingest.cpu)} s of its CPU; ClickHouse's own CPU not included`,
  );

  lines.push(
    '',
    '### Assumptions',
    '',
    '| plan | share | targets | on-demand scans / month | live-data sites | page views / site / month | with webhooks | page loads of a scheduled scan | Lighthouse results kept |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const key of PLAN_KEYS) {
    const a = ASSUMPTIONS.plans[key];
    const plan = PLANS[key];
    row(
      plan.label,
      `${Math.round(a.share * 100)} %`,
      `${a.targets} (of ${n0(plan.maxTargets)})`,
      n0(a.onDemandScansPerMonth),
      String(a.liveDataSites),
      n0(a.pageviewsPerSitePerMonth),
      `${Math.round(a.webhookShare * 100)} %`,
      String(plan.scheduledRuns),
      `${plan.lighthouseReportDays} days`,
    );
  }
  lines.push(
    '',
    `Beacons per page view ${ASSUMPTIONS.beaconsPerPageview}; busiest hour against the average: on-demand scans ${ASSUMPTIONS.onDemandPeakFactor}×, live data ${ASSUMPTIONS.liveDataPeakFactor}× (targets' scans are spread evenly over the day); cores and slots planned ${Math.round(ASSUMPTIONS.utilisation * 100)} % busy; a month is ${ASSUMPTIONS.daysPerMonth} days. Scan costs for 1 and 5 page loads are interpolated linearly from the two measured scans.`,
    '',
    '### What 1,000, 10,000 and 100,000 customers need',
    '',
    `| | ${needs.map((x) => `${n0(x.customers)} customers`).join(' | ')} |`,
    `|---|${needs.map(() => '---').join('|')}|`,
  );
  const each = (label: string, pick: (x: Needs) => string) => row(label, ...needs.map(pick));
  each('accounts Free / Starter / Pro / Agency', (x) => PLAN_KEYS.map((k) => n0(x.accounts[k])).join(' / '));
  each('monitored targets (= Temporal Schedules)', (x) => n0(x.targets));
  each(
    'scans per month: scheduled + on-demand',
    (x) => `${millions(x.scheduledScansPerMonth)} + ${millions(x.onDemandScansPerMonth)}`,
  );
  each('**worker cores** (busiest hour)', (x) => `**${n1(x.workerCores)}**`);
  each('worker processes (one Lighthouse at a time each)', (x) => n0(Math.ceil(x.workerProcesses)));
  each('**Temporal actions per month**', (x) => `**${millions(x.temporalActionsPerMonth)}**`);
  each(
    '&nbsp;&nbsp;actions per second: average, busiest hour (Cloud default limit 500)',
    (x) => `${n1(x.averageActionsPerSecond)}, ${n1(x.peakActionsPerSecond)}`,
  );
  each('&nbsp;&nbsp;schedule starts per second, evenly spread (Cloud default limit 10)', (x) =>
    n2(x.scheduleStartsPerSecond),
  );
  each('&nbsp;&nbsp;dispatcher actions per second per region (one workflow), busiest hour', (x) =>
    n1(
      ((x.scheduledScansPerMonth + x.onDemandScansPerMonth * ASSUMPTIONS.onDemandPeakFactor) /
        (ASSUMPTIONS.daysPerMonth * 86_400)) *
        dispatcherShare,
    ),
  );
  each('webhook deliveries per month', (x) => millions(x.webhookDeliveriesPerMonth));
  each('**Postgres** growth per month (scans, results)', (x) => `**${bytes(x.postgresBytesPerMonth)}**`);
  each('&nbsp;&nbsp;plus whole Lighthouse results kept (steady state)', (x) => bytes(x.lighthouseBytesKept));
  each('**images** growth per month', (x) => `**${bytes(x.imageBytesPerMonth)}**`);
  each('beacons per month', (x) => millions(x.beaconsPerMonth));
  each('**ClickHouse** growth per month (compressed)', (x) => `**${bytes(x.clickhouseBytesPerMonth)}**`);
  each('&nbsp;&nbsp;kept (the months RUM_KEEP_MONTHS keeps)', (x) => bytes(x.clickhouseBytesKept));
  each('ingest cores (busiest hour)', (x) => n1(x.ingestCores));
  return lines.join('\n');
}
