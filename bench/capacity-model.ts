/**
 * The capacity model of `npm run bench:capacity`: measured unit costs times a stated plan mix give what 1,000,
 * 10,000 and 100,000 customers need. Every assumption about customers is here, in ASSUMPTIONS; plan limits
 * come from core/plans.ts.
 */
import { PLAN_KEYS, PLANS, type PlanKey } from '../core/plans.ts';

/** What one run of the benchmark measured. */
export interface UnitCosts {
  /** Worker CPU (its process tree: runner, Chromium) and wall seconds of a whole scan, by page loads per form factor. */
  scans: Array<{ runs: number; cpuSeconds: number; wallSeconds: number }>;
  actionsPerOnDemandScan: number;
  actionsPerTargetDay: number;
  actionsPerWebhookDelivery: number;
  actionsPerAlertCheck: number;
  /** The reconcilers' schedules (scans, targets): a deployment's fixed actions per month. */
  fixedActionsPerMonth: number;
  /** Postgres bytes a scan adds, without its whole Lighthouse results (those are kept for the plan's days only). */
  postgresBytesPerScan: number;
  postgresRowsPerScan: number;
  lighthouseBytesPerScan: number;
  imageBytesPerScan: number;
  /** ClickHouse bytes on disk (compressed, after merging) per beacon. */
  clickhouseBytesPerBeacon: number;
  beaconsPerIngestCoreSecond: number;
}

interface PlanUsage {
  /** Share of the customers on the plan. */
  share: number;
  /** Monitored targets an account keeps (the plan allows core/plans.ts maxTargets). */
  targets: number;
  /** On-demand scans an account starts per month (one page load per form factor). */
  onDemandScansPerMonth: number;
  liveDataSites: number;
  pageviewsPerSitePerMonth: number;
  /** Share of the plan's accounts with a webhook endpoint: every finished scan is one delivery. */
  webhookShare: number;
}

export const ASSUMPTIONS = {
  plans: {
    free: {
      share: 0.7,
      targets: 1,
      onDemandScansPerMonth: 10,
      liveDataSites: 0,
      pageviewsPerSitePerMonth: 0,
      webhookShare: 0,
    },
    starter: {
      share: 0.15,
      targets: 3,
      onDemandScansPerMonth: 60,
      liveDataSites: 1,
      pageviewsPerSitePerMonth: 30_000,
      webhookShare: 0,
    },
    pro: {
      share: 0.12,
      targets: 10,
      onDemandScansPerMonth: 300,
      liveDataSites: 3,
      pageviewsPerSitePerMonth: 200_000,
      webhookShare: 0.3,
    },
    agency: {
      share: 0.03,
      targets: 100,
      onDemandScansPerMonth: 1500,
      liveDataSites: 20,
      pageviewsPerSitePerMonth: 300_000,
      webhookShare: 0.6,
    },
  } satisfies Record<PlanKey, PlanUsage>,
  /** The collector sends once per page view when the tab is hidden, again after a return to it. */
  beaconsPerPageview: 1.2,
  /** Busiest hour against the average hour: on-demand scans and live data follow office hours; targets are spread evenly. */
  onDemandPeakFactor: 3,
  liveDataPeakFactor: 2.5,
  /** The share of a core (or a Lighthouse slot) planned to be busy, leaving room for bursts and noisy neighbours. */
  utilisation: 0.6,
  daysPerMonth: 30,
  /** The live-data alert check runs every 5 minutes for the whole deployment. */
  alertChecksPerMonth: 30 * 24 * 12,
  customerCounts: [1_000, 10_000, 100_000],
} as const;

/** Linear in page loads per form factor, through the two measured points (1 run: on-demand; more: a target's day). */
function perScan(costs: UnitCosts, runs: number, pick: (s: UnitCosts['scans'][number]) => number): number {
  const [a, b] = [...costs.scans].sort((x, y) => x.runs - y.runs) as [
    UnitCosts['scans'][number],
    UnitCosts['scans'][number],
  ];
  if (a.runs === b.runs) return pick(a);
  return pick(a) + ((pick(b) - pick(a)) / (b.runs - a.runs)) * (runs - a.runs);
}

export interface Needs {
  customers: number;
  accounts: Record<PlanKey, number>;
  targets: number;
  scheduledScansPerMonth: number;
  onDemandScansPerMonth: number;
  workerCores: number;
  workerProcesses: number;
  temporalActionsPerMonth: number;
  averageActionsPerSecond: number;
  /** On-demand scans and their deliveries at their peak, the rest at its average. */
  peakActionsPerSecond: number;
  scheduleStartsPerSecond: number;
  webhookDeliveriesPerMonth: number;
  postgresBytesPerMonth: number;
  lighthouseBytesKept: number;
  imageBytesPerMonth: number;
  beaconsPerMonth: number;
  clickhouseBytesPerMonth: number;
  clickhouseBytesKept: number;
  ingestCores: number;
}

export function needsFor(customers: number, costs: UnitCosts, rumKeepMonths: number): Needs {
  const a = ASSUMPTIONS;
  const month = a.daysPerMonth * 86_400;
  const accounts = Object.fromEntries(
    PLAN_KEYS.map((key) => [key, Math.round(customers * a.plans[key].share)]),
  ) as Record<PlanKey, number>;
  let targets = 0;
  let scheduled = 0;
  let onDemand = 0;
  let scheduledCpu = 0;
  let scheduledWall = 0;
  let deliveries = 0;
  let onDemandDeliveries = 0;
  let lighthouseKept = 0;
  let pageviews = 0;
  for (const key of PLAN_KEYS) {
    const usage = a.plans[key];
    const plan = PLANS[key];
    const n = accounts[key];
    const planScheduled = n * usage.targets * a.daysPerMonth;
    const planOnDemand = n * usage.onDemandScansPerMonth;
    targets += n * usage.targets;
    scheduled += planScheduled;
    onDemand += planOnDemand;
    scheduledCpu += planScheduled * perScan(costs, plan.scheduledRuns, (s) => s.cpuSeconds);
    scheduledWall += planScheduled * perScan(costs, plan.scheduledRuns, (s) => s.wallSeconds);
    deliveries += (planScheduled + planOnDemand) * usage.webhookShare;
    onDemandDeliveries += planOnDemand * usage.webhookShare;
    lighthouseKept +=
      ((planScheduled + planOnDemand) / a.daysPerMonth) * plan.lighthouseReportDays * costs.lighthouseBytesPerScan;
    pageviews += n * usage.liveDataSites * usage.pageviewsPerSitePerMonth;
  }
  const onDemandCpu = onDemand * perScan(costs, 1, (s) => s.cpuSeconds);
  const onDemandWall = onDemand * perScan(costs, 1, (s) => s.wallSeconds);
  // Busiest hour: scheduled scans at their even rate, on-demand ones at their peak.
  const peak = (scheduledPart: number, onDemandPart: number) =>
    (scheduledPart / month + (onDemandPart / month) * a.onDemandPeakFactor) / a.utilisation;
  const actions =
    scheduled * costs.actionsPerTargetDay +
    onDemand * costs.actionsPerOnDemandScan +
    deliveries * costs.actionsPerWebhookDelivery +
    a.alertChecksPerMonth * costs.actionsPerAlertCheck +
    costs.fixedActionsPerMonth;
  const onDemandActions =
    onDemand * costs.actionsPerOnDemandScan + onDemandDeliveries * costs.actionsPerWebhookDelivery;
  const beacons = pageviews * a.beaconsPerPageview;
  const scans = scheduled + onDemand;
  return {
    customers,
    accounts,
    targets,
    scheduledScansPerMonth: scheduled,
    onDemandScansPerMonth: onDemand,
    workerCores: peak(scheduledCpu, onDemandCpu),
    workerProcesses: peak(scheduledWall, onDemandWall),
    temporalActionsPerMonth: actions,
    averageActionsPerSecond: actions / month,
    peakActionsPerSecond: (actions + onDemandActions * (a.onDemandPeakFactor - 1)) / month,
    scheduleStartsPerSecond: scheduled / month,
    webhookDeliveriesPerMonth: deliveries,
    postgresBytesPerMonth: scans * costs.postgresBytesPerScan,
    lighthouseBytesKept: lighthouseKept,
    imageBytesPerMonth: scans * costs.imageBytesPerScan,
    beaconsPerMonth: beacons,
    clickhouseBytesPerMonth: beacons * costs.clickhouseBytesPerBeacon,
    clickhouseBytesKept: beacons * costs.clickhouseBytesPerBeacon * rumKeepMonths,
    ingestCores: ((beacons / month) * a.liveDataPeakFactor) / costs.beaconsPerIngestCoreSecond / a.utilisation,
  };
}
