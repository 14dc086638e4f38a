import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { REJECTION_REASONS } from './reasons.ts';

/** The ingest service's operator metrics (Prometheus text format on the metrics port, never the public one). */
export function createIngestMetrics(source: {
  buffered: () => number;
  spooledRows: () => number;
  spooledBytes: () => number;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = {
    registry,
    accepted: new Counter({
      name: 'rum_ingest_beacons_accepted_total',
      help: 'Beacons accepted (acknowledged with 204 after their spool sync).',
      registers: [registry],
    }),
    acceptedRows: new Counter({
      name: 'rum_ingest_rows_accepted_total',
      help: 'Metric rows in accepted beacons.',
      registers: [registry],
    }),
    rejected: new Counter({
      name: 'rum_ingest_beacons_rejected_total',
      help: 'Beacons refused, by reason.',
      labelNames: ['reason'],
      registers: [registry],
    }),
    inserted: new Counter({
      name: 'rum_ingest_rows_inserted_total',
      help: 'Rows inserted into ClickHouse rum_metrics (replays included).',
      registers: [registry],
    }),
    insertErrors: new Counter({
      name: 'rum_ingest_clickhouse_insert_errors_total',
      help: 'Failed ClickHouse inserts, each retried from the spool (not those refused for their content: see rum_ingest_dead_letter_rows_total).',
      labelNames: ['table'],
      registers: [registry],
    }),
    deadLetterRows: new Counter({
      name: 'rum_ingest_dead_letter_rows_total',
      help: 'Rows ClickHouse refused for their content, set aside in the dead-letter file so that the rows behind them are stored.',
      registers: [registry],
    }),
    flushSeconds: new Histogram({
      name: 'rum_ingest_flush_duration_seconds',
      help: 'Duration of successful rum_metrics inserts.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    syncSeconds: new Histogram({
      name: 'rum_ingest_spool_sync_duration_seconds',
      help: 'Duration of each group write + fdatasync of the spool (beacons wait for it before their 204).',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    connectionsRefused: new Counter({
      name: 'rum_ingest_connections_refused_total',
      help: 'Connections closed at once: over the per-address cap or INGEST_MAX_CONNECTIONS.',
      registers: [registry],
    }),
    corruptRecords: new Counter({
      name: 'rum_ingest_spool_corrupt_total',
      help: 'Damaged spool records found (the rest of that file is skipped).',
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'rum_ingest_buffered_beacons',
    help: 'Beacons in memory waiting for their spool sync.',
    registers: [registry],
    collect() {
      this.set(source.buffered());
    },
  });
  new Gauge({
    name: 'rum_ingest_spooled_rows',
    help: 'Rows on disk not yet inserted into ClickHouse.',
    registers: [registry],
    collect() {
      this.set(source.spooledRows());
    },
  });
  new Gauge({
    name: 'rum_ingest_spool_bytes',
    help: 'Spool bytes not yet inserted into ClickHouse.',
    registers: [registry],
    collect() {
      this.set(source.spooledBytes());
    },
  });
  for (const reason of REJECTION_REASONS) metrics.rejected.inc({ reason }, 0);
  metrics.insertErrors.inc({ table: 'rum_metrics' }, 0);
  metrics.insertErrors.inc({ table: 'rum_rejections' }, 0);
  return metrics;
}

export type IngestMetrics = ReturnType<typeof createIngestMetrics>;
