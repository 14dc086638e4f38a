import type { Knex } from 'knex';
import { newPublicId } from '../../core/ids.ts';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../core/monitoring/thresholds.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import type { ScanScores } from '../../core/scoring/categories.ts';
import { createScanStore } from '../../db/store/scans.ts';
import { cleanObservation } from '../unit/observation-builder.ts';

export interface TestTarget {
  id: number;
  url: string;
  host: string;
  region: string;
}

let targetCounter = 0;

/**
 * A monitored target row, written directly: the target store and API belong to the targets work
 * (db/store/targets.ts); alert tests need only the row.
 */
export async function insertTarget(
  knex: Knex,
  userId: number,
  options: { thresholds?: Thresholds; now?: Date } = {},
): Promise<TestTarget> {
  targetCounter += 1;
  const host = `site${targetCounter}.example.com`;
  const now = options.now ?? new Date();
  const [row] = await knex('scan_targets')
    .insert({
      user_id: userId,
      url: `https://${host}/`,
      host,
      region: 'local',
      thresholds: JSON.stringify(options.thresholds ?? DEFAULT_THRESHOLDS),
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'url', 'host', 'region']);
  return { id: Number(row.id), url: row.url, host: row.host, region: row.region };
}

/** Every score 95 but those given. */
export const scoresOf = (overall: number, categories: Partial<ScanScores> = {}): ScanScores => ({
  overall,
  speed: 95,
  images: 95,
  caching: 95,
  technical: 95,
  wordpress: 100,
  ...categories,
});

/**
 * A finished scheduled scan of `target` with the given scores, finished at `finishedAt`: stored through the
 * scan store (insert, markFinished) like a real one; the target link is set directly (the scan store learns
 * target ids in the targets work). No Chromium: the result is a clean observation's with the scores replaced.
 */
export async function insertFinishedScan(
  knex: Knex,
  userId: number,
  target: TestTarget,
  scores: ScanScores,
  finishedAt: Date,
): Promise<string> {
  const scans = createScanStore(knex);
  const publicId = newPublicId(finishedAt);
  const requestedAt = new Date(finishedAt.getTime() - 60_000);
  await scans.insert({
    publicId,
    userId,
    url: target.url,
    host: target.host,
    region: target.region,
    isPublic: false,
    authType: null,
    authSecret: null,
    requestedAt,
    cacheKey: null,
  });
  await knex('scans').where({ public_id: publicId }).update({ target_id: target.id, trigger: 'schedule' });
  const observation = cleanObservation({ requestedUrl: target.url, finalUrl: target.url });
  await scans.markFinished(
    publicId,
    buildResultRecord(observation, { ...scoreScan(observation, finishedAt), scores }),
    finishedAt,
  );
  return publicId;
}
