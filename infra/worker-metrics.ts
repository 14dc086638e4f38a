import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { FAILURE_CODES } from '../core/scan/failures.ts';
import { METRICS } from '../core/metric-names.ts';

export const TARGET_RUN_SKIP_REASONS = ['inactive'] as const;
export type TargetRunSkipReason = (typeof TARGET_RUN_SKIP_REASONS)[number];
export const WEBHOOK_ATTEMPT_RESULTS = ['succeeded', 'failed', 'not_sent'] as const;
export type WebhookAttemptResult = (typeof WEBHOOK_ATTEMPT_RESULTS)[number];
export const WEBHOOK_DELIVERY_OUTCOMES = ['succeeded', 'failed', 'not_sent'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];
export const EMAIL_KINDS = ['alert', 'rum_alert', 'webhook_disabled'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** A mailer (services/mailer.ts) as seen by the counter wrapped around it. */
export interface CountableMailer<Mail> {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** What the scan queue of a region looks like from Temporal (backlog and pollers), read on each scrape. */
export type QueueProbe = (region: string) => Promise<{ backlog: number; pollers: number } | null>;

/**
 * The worker's operator metrics, served on its health port at /metrics (worker/main.ts). Regions come from
 * the configuration and failure codes from their fixed list: no label carries anything a user typed.
 */
export function createWorkerMetrics(options: {
  regions: string[];
  probeQueue?: QueueProbe;
  oldestWaiting?: (region: string) => Promise<number | null>;
  /** Webhook deliveries still pending, read on each scrape. */
  webhookBacklog?: () => Promise<number>;
}) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'worker' });
  collectDefaultMetrics({ register: registry });
  const started = new Counter({
    name: METRICS.scansStarted.name,
    help: 'Scans whose Lighthouse runs started, by region.',
    labelNames: ['region'],
    registers: [registry],
  });
  const finished = new Counter({
    name: METRICS.scansFinished.name,
    help: 'Scans ended, by region, outcome (finished|failed) and failure code (none when finished).',
    labelNames: ['region', 'outcome', 'failure_code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: METRICS.scanDuration.name,
    help: 'Time from the start of a scan attempt to its result, by region.',
    labelNames: ['region'],
    buckets: [5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600],
    registers: [registry],
  });
  const benchmark = new Gauge({
    name: METRICS.benchmarkIndex.name,
    help: "Lighthouse's benchmark index of the last scan measured in the region (low: an overloaded machine).",
    labelNames: ['region'],
    registers: [registry],
  });
  const { probeQueue, oldestWaiting } = options;
  /** A gauge per served region, read on scrape; a region whose reading fails keeps its last value. */
  const regionGauge = (
    metric: { name: string },
    help: string,
    read: ((region: string) => Promise<number | null>) | null,
  ) =>
    new Gauge({
      name: metric.name,
      help,
      labelNames: ['region'],
      registers: [registry],
      async collect() {
        if (!read) return;
        for (const region of options.regions) {
          const value = await read(region).catch(() => null);
          if (value !== null) this.set({ region }, value);
        }
      },
    });
  const queueReading = (pick: (queue: { backlog: number; pollers: number }) => number) =>
    probeQueue
      ? async (region: string) => {
          const queue = await probeQueue(region);
          return queue ? pick(queue) : null;
        }
      : null;
  regionGauge(
    METRICS.scanBacklog,
    "Lighthouse tasks waiting in the region's scan queue (Temporal's approximate backlog).",
    queueReading((queue) => queue.backlog),
  );
  regionGauge(
    METRICS.scanPollers,
    "Workers polling the region's scan queue recently (0: nobody serves the region).",
    queueReading((queue) => queue.pollers),
  );
  regionGauge(
    METRICS.scanOldestWaiting,
    'Age in seconds of the oldest scan still queued in the region (0 when none waits).',
    oldestWaiting ?? null,
  );
  const dispatched = new Counter({
    name: METRICS.schedulesDispatched.name,
    help: "Scheduled scans of monitored targets dispatched (a target's daily schedule fired and its scan was stored).",
    registers: [registry],
  });
  const skipped = new Counter({
    name: METRICS.schedulesSkipped.name,
    help: 'Target schedule firings that dispatched nothing, by reason (inactive: the target was paused or deleted meanwhile).',
    labelNames: ['reason'],
    registers: [registry],
  });
  const deliveries = new Counter({
    name: METRICS.webhookDeliveries.name,
    help: 'Webhook deliveries ended, by outcome (succeeded, failed after its last attempt or on disabling, not_sent: refused before sending).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const attempts = new Counter({
    name: METRICS.webhookAttempts.name,
    help: 'Webhook delivery attempts, by result (succeeded, failed: non-2xx, timeout or connection error; not_sent).',
    labelNames: ['result'],
    registers: [registry],
  });
  const disabled = new Counter({
    name: METRICS.webhookEndpointsDisabled.name,
    help: 'Webhook endpoints disabled (410 Gone, or 5 days of nothing but failures).',
    registers: [registry],
  });
  const emails = new Counter({
    name: METRICS.emails.name,
    help: 'E-mails handed to the SMTP server, by kind and outcome (sent, failed).',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const rumCheck = new Histogram({
    name: METRICS.rumAlertCheckDuration.name,
    help: 'Duration of one live-data alert check over every configuration.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const { webhookBacklog } = options;
  new Gauge({
    name: METRICS.webhookBacklog.name,
    help: 'Webhook deliveries pending (waiting for their next attempt), over all users.',
    registers: [registry],
    async collect() {
      if (!webhookBacklog) return;
      const pending = await webhookBacklog().catch(() => null);
      if (pending !== null) this.set(pending);
    },
  });
  for (const reason of TARGET_RUN_SKIP_REASONS) skipped.inc({ reason }, 0);
  for (const outcome of WEBHOOK_DELIVERY_OUTCOMES) deliveries.inc({ outcome }, 0);
  for (const result of WEBHOOK_ATTEMPT_RESULTS) attempts.inc({ result }, 0);
  for (const kind of EMAIL_KINDS) for (const outcome of ['sent', 'failed']) emails.inc({ kind, outcome }, 0);
  for (const region of options.regions) {
    started.inc({ region }, 0);
    finished.inc({ region, outcome: 'finished', failure_code: 'none' }, 0);
  }
  const known = new Set<string>(FAILURE_CODES);
  // A scan's region comes from its row: one no longer configured (a region retired with scans still stored)
  // counts as `other`, so the label keeps to the configured set.
  const regions = new Set(options.regions);
  const regionLabel = (region: string): string => (regions.has(region) ? region : 'other');
  return {
    registry,
    scanStarted: (region: string) => started.inc({ region: regionLabel(region) }),
    scanEnded: (
      region: string,
      outcome: { status: 'finished' } | { status: 'failed'; code: string },
      seconds: number | null,
    ) => {
      finished.inc({
        region: regionLabel(region),
        outcome: outcome.status,
        failure_code: outcome.status === 'failed' ? (known.has(outcome.code) ? outcome.code : 'other') : 'none',
      });
      if (seconds !== null) duration.observe({ region: regionLabel(region) }, seconds);
    },
    benchmarkIndex: (region: string, value: number) => benchmark.set({ region: regionLabel(region) }, value),
    targetRunDispatched: () => dispatched.inc(),
    targetRunSkipped: (reason: TargetRunSkipReason) => skipped.inc({ reason }),
    webhookAttempt: (result: WebhookAttemptResult) => attempts.inc({ result }),
    webhookDeliveryEnded: (outcome: WebhookDeliveryOutcome) => deliveries.inc({ outcome }),
    webhookEndpointDisabled: () => disabled.inc(),
    rumAlertCheck: (seconds: number) => rumCheck.observe(seconds),
    /** The mailer, counting what it sends as `kind`. */
    countingMailer: <Mail>(mailer: CountableMailer<Mail>, kind: EmailKind): CountableMailer<Mail> => ({
      async send(mail) {
        try {
          await mailer.send(mail);
        } catch (error) {
          emails.inc({ kind, outcome: 'failed' });
          throw error;
        }
        emails.inc({ kind, outcome: 'sent' });
      },
      close: () => mailer.close(),
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
