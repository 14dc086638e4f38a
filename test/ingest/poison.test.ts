import { join } from 'node:path';
import type { Beacon } from '../../core/rum/beacon.ts';
import type { RumSite } from '../../core/rum/site.ts';
import { DEAD_LETTER_FILE, readDeadLetter } from '../../ingest/dead-letter.ts';
import { Spool, spoolFiles } from '../../ingest/spool.ts';
import { beaconRows } from '../../ingest/validate.ts';
import { waitUntil } from '../../stack/proc.ts';
import { startReady } from '../harness/processes.ts';
import {
  beacon,
  createSite,
  ingestBed,
  type IngestBed,
  type IngestProcess,
  metric,
  queryRows,
  send,
  startIngest,
} from './support.ts';

/**
 * A lone UTF-16 surrogate in a beacon: refused at the door (`bad_text`), and, for rows already spooled before the
 * door checked (a spool from an older ingest), set aside in the dead letter by the flusher while every other
 * acknowledged beacon is stored once. The real ingest process on the shared ClickHouse (a database of its own).
 */
let bed: IngestBed;
let poisoned: RumSite;
let others: RumSite[];

beforeAll(async () => {
  bed = await ingestBed();
  poisoned = await createSite(bed.db.knex, { domain: 'example.com', plan: 'agency' });
  others = [
    await createSite(bed.db.knex, { domain: 'shop-b.test', plan: 'agency' }),
    await createSite(bed.db.knex, { domain: 'news-c.test', plan: 'pro' }),
    await createSite(bed.db.knex, { domain: 'blog-d.test', plan: 'starter' }),
  ];
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

const env = (spool: string, extra: Record<string, string> = {}) =>
  bed.env(spool, {
    // One test address sends for every site: the rate limits (abuse.test.ts) stay out of the way.
    INGEST_ADDRESS_RATE: '1000000',
    INGEST_ADDRESS_BURST: '1000000',
    INGEST_SITE_RATE: '1000000',
    INGEST_SITE_BURST: '1000000',
    ...extra,
  });

async function storedRows(siteIds: number[]): Promise<{ rows: number; distinct: number }> {
  const [row] = await queryRows<{ rows: string; distinct: string }>(
    bed.ch.client,
    `SELECT count() AS rows, uniqExact(page_view_id, metric_id) AS distinct FROM ${bed.ch.database}.rum_metrics WHERE site_id IN (${siteIds.join(',')})`,
  );
  return { rows: Number(row!.rows), distinct: Number(row!.distinct) };
}

async function rowsOfPageView(pv: string): Promise<string[]> {
  const rows = await queryRows<{ metric: string }>(
    bed.ch.client,
    `SELECT metric FROM ${bed.ch.database}.rum_metrics WHERE page_view_id = '${pv}' ORDER BY metric`,
  );
  return rows.map((r) => r.metric);
}

/** Genuine beacons from the other sites, each answered 204; returns their page-view ids. */
async function sendGenuine(ingest: IngestProcess, count: number): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let i = 0; i < count; i++) {
    const site = others[i % others.length]!;
    const b = beacon(site.publicId);
    const answer = await send(ingest.url, b, { origin: `https://${site.domain}` });
    expect(answer.status).toBe(204);
    acknowledged.push(b.pv);
  }
  return acknowledged;
}

/** The poisoned beacons: a lone high surrogate in the path (every row) and in one INP script's function name (one row). */
function poisonBeacons(): { inPath: Beacon; inFunction: Beacon } {
  const inPath = beacon(poisoned.publicId, { path: '/x\ud83d' });
  const inFunction = beacon(poisoned.publicId);
  inFunction.metrics[2]!.scripts![0]!.fn = '\ud800';
  return { inPath, inFunction };
}

/** Appends rows to a spool directory as an ingest from before the door's check spooled them (no validation). */
async function spoolAsOlderIngest(dir: string, beacons: Beacon[]): Promise<void> {
  const spool = await Spool.open({ dir, maxBytes: 64 * 1024 * 1024 });
  const context = { siteId: poisoned.id, sampleRate: 100, source: 1, keepOneIn: 1 };
  for (const b of beacons) await spool.append(Buffer.from(beaconRows(b, context, new Date())), b.metrics.length);
  await spool.close();
}

it('sets a poisoned row aside among 1,000 genuine beacons of other sites, across a restart with the poison spooled', async () => {
  const spoolDir = bed.spoolDir('mixed');
  // 500 acknowledged beacons wait in the spool (long batches) when the process dies.
  const first = await startIngest(env('mixed', { INGEST_BATCH_MS: '60000', INGEST_BATCH_ROWS: '100000' }));
  const before = await sendGenuine(first, 500);
  first.service.child.kill('SIGKILL');
  await new Promise((r) => first.service.child.once('exit', r));
  // The poison behind them, as an older ingest accepted it; the next process replays it all in one batch.
  const { inPath, inFunction } = poisonBeacons();
  await spoolAsOlderIngest(spoolDir, [inPath, inFunction]);
  const ingest = await startIngest(env('mixed'));
  try {
    // 500 more arrive while (and after) the poisoned batch is dealt with: nothing behind the poison waits for ever.
    const after = await sendGenuine(ingest, 500);
    const acknowledged = [...before, ...after];
    expect(new Set(acknowledged).size).toBe(1000);
    const otherIds = others.map((s) => s.id);
    await waitUntil(
      'every acknowledged beacon stored',
      async () => (await storedRows(otherIds)).distinct === 3000,
      60_000,
      250,
    ).catch(async (error: unknown) => {
      const stored = JSON.stringify(await storedRows(otherIds));
      throw new Error(
        `${(error as Error).message} (${stored})\n--- ingest output ---\n${ingest.service.output().slice(-4000)}`,
      );
    });
    // Stored exactly once: no row twice (the refused inserts stored nothing).
    expect(await storedRows(otherIds)).toEqual({ rows: 3000, distinct: 3000 });
    const pageViews = await queryRows<{ pv: string; n: string }>(
      bed.ch.client,
      `SELECT page_view_id AS pv, count() AS n FROM ${bed.ch.database}.rum_metrics WHERE site_id IN (${otherIds.join(',')}) GROUP BY pv`,
    );
    expect(pageViews.map((r) => r.pv).sort()).toEqual([...acknowledged].sort());
    expect(pageViews.every((r) => Number(r.n) === 3)).toBe(true);

    // The poisoned rows, and only they, are set aside and counted; the poisoned beacon's good rows are stored.
    expect(await rowsOfPageView(inPath.pv)).toEqual([]);
    expect(await rowsOfPageView(inFunction.pv)).toEqual(['LCP', 'CLS']);
    const letter = readDeadLetter(join(spoolDir, DEAD_LETTER_FILE));
    expect(letter.map((e) => (JSON.parse(e.row) as { page_view_id: string; metric: string }).metric).sort()).toEqual([
      'CLS',
      'INP',
      'INP',
      'LCP',
    ]);
    expect(letter.map((e) => (JSON.parse(e.row) as { page_view_id: string }).page_view_id).sort()).toEqual(
      [inPath.pv, inPath.pv, inPath.pv, inFunction.pv].sort(),
    );
    for (const entry of letter) expect(entry.error).toContain('surrogate pair');
    expect(letter.find((e) => e.row.includes(inFunction.pv))!.row).toContain('"script_functions":["\\ud800"');
    expect(await metric(ingest.metricsUrl, 'rum_ingest_dead_letter_rows_total')).toBe(4);
    await waitUntil(
      'spool emptied',
      async () => (await metric(ingest.metricsUrl, 'rum_ingest_spooled_rows')) === 0,
      30_000,
      200,
    );
  } finally {
    expect(await ingest.service.stop()).toBe(0);
  }

  // Another start finds nothing left: the poison is not replayed, set aside again or stored.
  const again = await startReady('ingest', ingest.env);
  try {
    await new Promise((r) => setTimeout(r, 1000));
    expect(await metric(ingest.metricsUrl, 'rum_ingest_dead_letter_rows_total')).toBe(0);
  } finally {
    expect(await again.stop()).toBe(0);
  }
  expect(readDeadLetter(join(spoolDir, DEAD_LETTER_FILE))).toHaveLength(4);
  expect(spoolFiles(spoolDir)).toEqual([]);
  expect(await storedRows(others.map((s) => s.id))).toEqual({ rows: 3000, distinct: 3000 });
  expect(await rowsOfPageView(inFunction.pv)).toEqual(['LCP', 'CLS']);
}, 240_000);

describe('at the door', () => {
  let ingest: IngestProcess;
  beforeAll(async () => {
    ingest = await startIngest(env('door'));
  }, 120_000);
  afterAll(async () => {
    await ingest?.service.stop();
  });

  it('refuses a lone or reversed surrogate in any field with 400 bad_text, counts it, and stores nothing', async () => {
    const site = await createSite(bed.db.knex, { domain: 'door.test', plan: 'agency' });
    const headers = { origin: 'https://door.test' };
    const bodies: object[] = [];
    for (const poison of ['\ud800', '\udc00', '\udc00\ud800']) {
      bodies.push(beacon(site.publicId, { path: `/x${poison}` }));
      const lcp = beacon(site.publicId);
      lcp.metrics[0]!.target = `img#hero${poison}`;
      bodies.push(lcp);
      const url = beacon(site.publicId);
      url.metrics[0]!.url = `https://cdn.example.com/${poison}.jpg`;
      bodies.push(url);
      const fn = beacon(site.publicId);
      fn.metrics[2]!.scripts![0]!.fn = poison;
      bodies.push(fn);
      const src = beacon(site.publicId);
      src.metrics[2]!.scripts![0]!.src = `https://cdn.example.com/${poison}.js`;
      bodies.push(src);
      const inp = beacon(site.publicId);
      inp.metrics[2]!.target = `button.${poison}`;
      bodies.push(inp);
    }
    for (const body of bodies) {
      const answer = await send(ingest.url, body, headers);
      expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
        status: 400,
        body: { message: 'Beacon text is not well-formed Unicode.', error: 'bad_text' },
      });
    }
    // Bytes that are not UTF-8 are refused too (decoding would turn them into U+FFFD unseen), before the JSON is read,
    // so not tied to the site: a Latin-1 é, stray 0xFF 0xFE, and a surrogate encoded as if it were a character.
    const json = JSON.stringify(beacon(site.publicId, { path: '/cafHERE' })).split('HERE');
    const raws = [[0xe9], [0xff, 0xfe], [0xed, 0xa0, 0x80]].map((bytes) =>
      Buffer.concat([Buffer.from(json[0]!), Buffer.from(bytes), Buffer.from(json[1]!)]),
    );
    for (const body of raws) {
      const answer = await send(ingest.url, body, headers);
      expect({ status: answer.status, error: (JSON.parse(answer.body) as { error: string }).error }).toEqual({
        status: 400,
        error: 'bad_text',
      });
    }
    // A well-formed pair outside the BMP is fine.
    const emoji = beacon(site.publicId, { path: '/\u{1F600}' });
    expect((await send(ingest.url, emoji, headers)).status).toBe(204);

    expect(await metric(ingest.metricsUrl, 'rum_ingest_beacons_rejected_total', 'reason="bad_text"')).toBe(
      bodies.length + raws.length,
    );
    await waitUntil(
      'refusals counted for the site',
      async () => {
        const [row] = await queryRows<{ n: string }>(
          bed.ch.client,
          `SELECT sum(beacons) AS n FROM ${bed.ch.database}.rum_rejections WHERE site_id = ${site.id} AND reason = 'bad_text'`,
        );
        return Number(row?.n ?? 0) === bodies.length;
      },
      20_000,
      200,
    );
    await waitUntil('the good beacon stored', async () => (await rowsOfPageView(emoji.pv)).length === 3, 20_000, 100);
    // Only the good beacon reached rum_metrics.
    expect(await storedRows([site.id])).toEqual({ rows: 3, distinct: 3 });
  });
});
