import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from '../infra/logger.ts';
import { refusedForContent } from '../db/clickhouse/client.ts';
import { insertRumMetricRows, insertRumRejections, RUM_METRIC_COLUMNS } from '../db/clickhouse/rum-ingest.ts';
import type { DeadLetter, RefusedRow } from './dead-letter.ts';
import type { IngestMetrics } from './metrics.ts';
import type { RejectionTally } from './rejections.ts';
import type { Spool, SpoolBatch } from './spool.ts';

export interface FlusherOptions {
  clickhouse: ClickHouseClient;
  database: string;
  spool: Spool;
  /** Where rows that ClickHouse refuses for their content go, so that the rows behind them are stored. */
  deadLetter: DeadLetter;
  rejections: RejectionTally;
  metrics: IngestMetrics;
  log: Logger;
  /** An insert at this many rows, or when the oldest row has waited `batchMs`. */
  batchRows: number;
  batchMs: number;
}

const MAX_BACKOFF_MS = 5000;

/**
 * Moves spooled rows into ClickHouse, in spool order, one insert at a time: at `batchRows` rows or every
 * `batchMs`. A failed insert is retried (backoff up to 5 s) with the same rows; meanwhile new beacons keep
 * going to the spool. An insert that failed after ClickHouse had in fact stored it is inserted again: the rows
 * are identical (same page view, metric id and seq), and queries keep one row per key, so nothing counts twice.
 * A batch ClickHouse refuses for its content (refusedForContent: retrying it would fail for ever and hold up
 * every row behind it) is halved until the refused rows stand alone; those go to the dead letter, the rest are
 * stored, and the spool moves on.
 */
export class Flusher {
  private readonly o: FlusherOptions;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** 0: the first round runs at once (a spool left by an earlier process is replayed without waiting). */
  private lastFlush = 0;
  private failures = 0;
  /** Whether ClickHouse answered the last insert (the log says when this changes). */
  private healthy = true;

  constructor(options: FlusherOptions) {
    this.o = options;
  }

  start(): void {
    this.running = true;
    const unsubscribe = this.o.spool.onSynced(() => {
      if (this.o.spool.spooledRows >= this.o.batchRows) this.wake?.();
    });
    this.loop = this.run().finally(unsubscribe);
  }

  private async run(): Promise<void> {
    while (this.running) {
      const due = this.lastFlush + this.o.batchMs - Date.now();
      if (this.o.spool.spooledRows < this.o.batchRows && due > 0) await this.sleep(due);
      if (!this.running) break;
      this.lastFlush = Date.now();
      const ok = (await this.flushAll()) && (await this.flushRejections());
      if (ok) this.failures = 0;
      else await this.sleep(Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(this.failures++, 5)));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((done) => {
      const timer = setTimeout(finish, ms);
      const wake = () => finish();
      function finish(): void {
        clearTimeout(timer);
        done();
      }
      this.wake = wake;
    }).finally(() => {
      this.wake = null;
    });
  }

  /**
   * Inserts what is due: one batch, then more only while a full batch waits (so a busy spool does not turn
   * into a stream of small inserts, each a part for ClickHouse to merge); with `untilEmpty`, everything.
   * False when an insert failed.
   */
  private async flushAll(deadline = Infinity, untilEmpty = false): Promise<boolean> {
    for (let first = true; ; first = false) {
      if (Date.now() > deadline) return false;
      if (!first && !untilEmpty && this.o.spool.spooledRows < this.o.batchRows) return true;
      const batch = await this.o.spool.read(this.o.batchRows);
      if (!batch) return true;
      const started = performance.now();
      try {
        await this.insert(batch.data);
        this.o.metrics.flushSeconds.observe((performance.now() - started) / 1000);
        this.o.metrics.inserted.inc(batch.rows);
      } catch (error) {
        try {
          if (!refusedForContent(error)) throw error;
          await this.setAside(batch, error);
        } catch (failure) {
          this.failing(failure);
          return false;
        }
      }
      this.o.spool.consumed(batch);
      if (!this.healthy)
        this.o.log.info(
          { spooledRows: this.o.spool.spooledRows },
          'ClickHouse inserts work again; replaying the spool',
        );
      this.healthy = true;
    }
  }

  private insert(rows: Buffer): Promise<void> {
    return insertRumMetricRows(this.o.clickhouse, this.o.database, RUM_METRIC_COLUMNS, rows);
  }

  private failing(error: unknown): void {
    this.o.metrics.insertErrors.inc({ table: 'rum_metrics' });
    if (this.healthy)
      this.o.log.warn(
        { err: error, spooledRows: this.o.spool.spooledRows },
        'ClickHouse insert failing; beacons stay in the spool',
      );
    this.healthy = false;
  }

  /**
   * Stores a refused batch's rows in halves, halving again whatever is refused for its content, and appends the
   * single rows still refused to the dead letter. Throws (nothing set aside, the batch stays in the spool) when
   * ClickHouse fails otherwise on the way or the dead letter cannot be written: the next round starts over, and
   * halves already stored are stored again as identical copies, which queries count once.
   */
  private async setAside(batch: SpoolBatch, refusal: unknown): Promise<void> {
    const lines = batch.data.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const refused: RefusedRow[] = [];
    const pending = halves(lines);
    for (let part = pending.shift(); part; part = pending.shift()) {
      try {
        await this.insert(Buffer.from(part.join('\n') + '\n'));
        this.o.metrics.inserted.inc(part.length);
      } catch (error) {
        if (!refusedForContent(error)) throw error;
        if (part.length === 1) refused.push({ row: part[0]!, error: (error as Error).message });
        else pending.unshift(...halves(part));
      }
    }
    if (refused.length === 0) return; // every half went in: nothing was the rows' fault after all
    await this.o.deadLetter.add(refused, new Date());
    this.o.metrics.deadLetterRows.inc(refused.length);
    this.o.log.error(
      { rows: refused.length, batchRows: lines.length, file: this.o.deadLetter.file, err: refusal },
      'ClickHouse refused rows for their content; they are in the dead letter, the rest of the batch is stored',
    );
  }

  private async flushRejections(): Promise<boolean> {
    if (this.o.rejections.size === 0) return true;
    const rows = this.o.rejections.take();
    try {
      await insertRumRejections(this.o.clickhouse, this.o.database, rows);
      return true;
    } catch (error) {
      this.o.rejections.restore(rows);
      this.o.metrics.insertErrors.inc({ table: 'rum_rejections' });
      this.o.log.warn({ err: error }, 'rum_rejections insert failed; kept for the next flush');
      return false;
    }
  }

  /**
   * Stops the timer loop, then inserts everything spooled (SIGTERM), giving up at `graceMs` when ClickHouse
   * does not answer: what is left stays in the spool for the next start. Resolves true when nothing was left.
   */
  async drain(graceMs: number): Promise<boolean> {
    this.running = false;
    this.wake?.();
    await this.loop;
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      if ((await this.flushAll(deadline, true)) && (await this.flushRejections())) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  }
}

/** A list in two halves, the first first (spool order is kept). */
function halves<T>(items: T[]): T[][] {
  const middle = Math.ceil(items.length / 2);
  return [items.slice(0, middle), items.slice(middle)].filter((half) => half.length > 0);
}
