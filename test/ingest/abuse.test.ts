import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import { OVER_LIMIT_KEEP_ONE_IN, utcMonth } from '../../core/rum/over-limit.ts';
import type { RumSite } from '../../core/rum/site.ts';
import { countMonthPageviews } from '../../db/clickhouse/rum-ingest.ts';
import { createRumSiteStore } from '../../db/store/rum-sites.ts';
import { smtpMailer } from '../../services/mailer.ts';
import { noticeLimitReached } from '../../services/rum-limit-notice.ts';
import { waitUntil } from '../../stack/proc.ts';
import { freePort } from '../harness/isolated.ts';
import { baseTestEnv } from '../harness/shared.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import {
  beacon,
  createSite,
  type IngestBed,
  ingestBed,
  type IngestProcess,
  queryRows,
  send,
  startIngest,
} from './support.ts';

/**
 * Beacons anyone can forge, against the real ingest process, Postgres, ClickHouse and SMTP sink. Senders are
 * told apart by their loopback address (127.x.y.z); each may send a burst of 30 beacons, then 1 a second.
 */
let bed: IngestBed;
let ingest: IngestProcess;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  bed = await ingestBed();
  ingest = await bed.start('spool', {
    INGEST_ADDRESS_RATE: '1',
    INGEST_ADDRESS_BURST: '30',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  });
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await smtp?.stop();
});

const ownerEmail = async (site: RumSite) =>
  ((await bed.db.knex('users').where({ id: site.userId }).first('email')) as { email: string }).email;

/** `perSender` beacons from each of `senders` addresses 127.<net>.0.<1..senders>, senders in parallel. */
async function flood(
  site: RumSite,
  domain: string,
  net: number,
  senders: number,
  perSender: number,
  overrides: { rate?: number } = {},
): Promise<number[]> {
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: senders }, async (_, s) => {
      for (let i = 0; i < perSender; i++) {
        statuses.push(
          (
            await send(
              ingest.url,
              beacon(site.publicId, overrides),
              { origin: `https://${domain}` },
              'POST',
              `127.${net}.0.${s + 1}`,
            )
          ).status,
        );
      }
    }),
  );
  return statuses;
}

async function storedPageViews(
  siteId: number,
): Promise<Array<{ sample_rate: number; keep_one_in: number; pvs: string }>> {
  return queryRows(
    bed.ch.client,
    `SELECT sample_rate, keep_one_in, uniqExact(page_view_id) AS pvs FROM ${bed.ch.database}.rum_metrics WHERE site_id = ${siteId} GROUP BY sample_rate, keep_one_in ORDER BY keep_one_in`,
  );
}

it("weighs page views by the site's configured sample rate, never by the rate a beacon claims", async () => {
  const site = await createSite(bed.db.knex, { plan: 'starter', domain: 'forged.test' }); // 100 %, 100,000 page views a month
  // 1,000 forged beacons claiming a 1 % sample: at their word they would be 100,000 page views, the whole month.
  const statuses = await flood(site, 'forged.test', 20, 40, 25, { rate: 1 });
  expect(statuses.filter((s) => s === 204).length).toBe(1000);
  await waitUntil(
    'forged beacons stored',
    async () => Number((await storedPageViews(site.id))[0]?.pvs ?? 0) === 1000,
    30_000,
    200,
  );
  expect(await storedPageViews(site.id)).toEqual([{ sample_rate: 100, keep_one_in: 1, pvs: '1000' }]);
  expect(await countMonthPageviews(bed.ch.client, bed.ch.database, site.id, utcMonth(new Date()))).toBe(1000);
  // A genuine beacon is still accepted and stored in full.
  expect(
    (await send(ingest.url, beacon(site.publicId), { origin: 'https://forged.test' }, 'POST', '127.20.1.1')).status,
  ).toBe(204);
}, 120_000);

it('limits beacons per source address with a burst of 30, answering 429 with Retry-After; other senders are not affected', async () => {
  const site = await createSite(bed.db.knex, { plan: 'pro', domain: 'busy.test' });
  const answers = [];
  for (let i = 0; i < 40; i++)
    answers.push(await send(ingest.url, beacon(site.publicId), { origin: 'https://busy.test' }, 'POST', '127.21.0.1'));
  const accepted = answers.filter((a) => a.status === 204).length;
  const limited = answers.filter((a) => a.status === 429);
  console.log(`one sender, 40 beacons back to back: ${accepted} accepted, ${limited.length} limited`);
  expect(accepted).toBeGreaterThanOrEqual(30);
  expect(accepted).toBeLessThan(40);
  expect(JSON.parse(limited[0]!.body)).toMatchObject({ error: 'rate_limited' });
  expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(
    (await send(ingest.url, beacon(site.publicId), { origin: 'https://busy.test' }, 'POST', '127.21.0.2')).status,
  ).toBe(204);
}, 60_000);

it('past the monthly limit keeps a 1-in-10 sample instead of refusing, and e-mails the owner once', async () => {
  const site = await createSite(bed.db.knex, { plan: 'starter', domain: 'full.test' });
  // 1,000 page views stored earlier this month at a 1 % sample rate: 100,000, the Starter limit.
  const values = Array.from(
    { length: 1000 },
    (_, i) =>
      `(${site.id}, now(), 'seed${i}', 1, 'm', 'LCP', 1000, 'desktop', 'navigate', '/', 1, '', '', '', ${i}, 1)`,
  ).join(',');
  await bed.ch.client.command({
    query: `INSERT INTO ${bed.ch.database}.rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type, source, keep_one_in) VALUES ${values}`,
  });

  const statuses = await flood(site, 'full.test', 22, 10, 30);
  expect(statuses.filter((s) => s === 204).length).toBe(300); // none refused
  await waitUntil(
    'over-limit refusals counted',
    async () => {
      const rows = await queryRows<{ beacons: string }>(
        bed.ch.client,
        `SELECT sum(beacons) AS beacons FROM ${bed.ch.database}.rum_rejections WHERE site_id = ${site.id} AND reason = 'over_limit'`,
      );
      const stored = (await storedPageViews(site.id)).find((r) => r.keep_one_in === OVER_LIMIT_KEEP_ONE_IN);
      return Number(rows[0]?.beacons ?? 0) + Number(stored?.pvs ?? 0) === 300;
    },
    30_000,
    200,
  );
  const kept = Number((await storedPageViews(site.id)).find((r) => r.keep_one_in === OVER_LIMIT_KEEP_ONE_IN)!.pvs);
  console.log(`past the limit: ${kept} of 300 page views kept (expected about ${300 / OVER_LIMIT_KEEP_ONE_IN})`);
  // Binomial(300, 1/10): mean 30, sd 5.2; these bounds are more than 4 sd away.
  expect(kept).toBeGreaterThanOrEqual(8);
  expect(kept).toBeLessThanOrEqual(55);
  expect(await countMonthPageviews(bed.ch.client, bed.ch.database, site.id, utcMonth(new Date()))).toBe(
    100_000 + kept * OVER_LIMIT_KEEP_ONE_IN,
  );

  // The owner's e-mail, once; the notice row the site page reads.
  const email = await ownerEmail(site);
  await waitUntil('limit e-mail', async () => smtp.messages.some((m) => m.to.includes(email)), 30_000, 100);
  const mails = () => smtp.messages.filter((m) => m.to.includes(email));
  expect(mails()[0]!.subject).toBe('[Live data] Monthly page-view limit reached – full.test');
  expect(mails()[0]!.text).toContain(`1 page view in ${OVER_LIMIT_KEEP_ONE_IN} is still measured`);
  await waitUntil(
    'notice recorded as e-mailed',
    async () => Boolean((await bed.db.knex('rum_limit_notices').where({ site_id: site.id }).first())?.emailed_at),
    10_000,
    100,
  );
  expect(await createRumSiteStore(bed.db.knex).limitReachedAt([site.id], utcMonth(new Date()))).toEqual(
    new Map([[site.id, expect.any(Date)]]),
  );
  // More beacons, and a second ingest instance reaching the same limit: still one e-mail.
  await flood(site, 'full.test', 23, 5, 10);
  const mailer = smtpMailer({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'x@example.test' });
  const log = createLogger(loadConfig({ ...baseTestEnv(), LOG_LEVEL: 'silent' }), 'test');
  const site2 = (await createRumSiteStore(bed.db.knex).findForIngest(site.publicId))!;
  expect(
    await noticeLimitReached(
      { rumSites: createRumSiteStore(bed.db.knex), mailer, baseUrl: 'http://127.0.0.1', log },
      site2,
      utcMonth(new Date()),
      new Date(),
    ),
  ).toBe(true);
  mailer.close();
  expect(mails()).toHaveLength(1);
}, 120_000);

describe('the per-site rate limit', () => {
  let siteLimited: IngestProcess;
  const siteSpool = mkdtempSync(join(tmpdir(), 'ingest-site-limit-'));
  beforeAll(async () => {
    // Senders get all they want; a site takes a burst of 20 beacons, then 1 a second.
    siteLimited = await startIngest({
      DATABASE_URL: bed.db.databaseUrl,
      CLICKHOUSE_DATABASE: bed.ch.database,
      INGEST_SPOOL_DIR: siteSpool,
      INGEST_ADDRESS_RATE: '1000',
      INGEST_ADDRESS_BURST: '1000',
      INGEST_SITE_RATE: '1',
      INGEST_SITE_BURST: '20',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    });
  }, 60_000);
  afterAll(async () => {
    await siteLimited?.service.stop();
    rmSync(siteSpool, { recursive: true, force: true });
  });

  it("refuses a site's beacons past its burst however many senders share it, and leaves other sites alone", async () => {
    const busy = await createSite(bed.db.knex, { plan: 'pro', domain: 'busy.test' });
    const quiet = await createSite(bed.db.knex, { plan: 'pro', domain: 'quiet.test' });
    const statuses: number[] = [];
    const bodies: string[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async (_, s) => {
        for (let i = 0; i < 2; i++) {
          const answer = await send(
            siteLimited.url,
            beacon(busy.publicId),
            { origin: 'https://busy.test' },
            'POST',
            `127.40.0.${s + 1}`,
          );
          statuses.push(answer.status);
          if (answer.status === 429) bodies.push(answer.body);
        }
      }),
    );
    const accepted = statuses.filter((s) => s === 204).length;
    console.log(`per-site limit: ${accepted} of 60 beacons from 30 senders accepted`);
    // The burst of 20, plus at most what refilled (1 a second) while the 60 requests were sent.
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThan(40);
    expect(statuses.filter((s) => s === 429).length).toBe(60 - accepted);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ error: 'rate_limited' });
    // Another site, from the same senders: its own bucket.
    expect(
      (await send(siteLimited.url, beacon(quiet.publicId), { origin: 'https://quiet.test' }, 'POST', '127.40.0.1'))
        .status,
    ).toBe(204);
  }, 60_000);
});
