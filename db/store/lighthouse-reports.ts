import type { Knex } from 'knex';
import type { PlanKey } from '../../core/plans.ts';
import type { LighthouseReport } from '../../core/scan/lighthouse-report.ts';
import type { FormFactor } from '../../core/scan/observation.ts';

interface ReportRow {
  scan_id: number;
  form_factor: FormFactor;
  content: Buffer;
  json_bytes: number;
  created_at: Date;
}

export interface StoredLighthouseReport extends LighthouseReport {
  createdAt: Date;
}

/** What exists of a scan's stored Lighthouse results, without their content. */
export interface LighthouseReportEntry {
  formFactor: FormFactor;
  gzipBytes: number;
  jsonBytes: number;
  createdAt: Date;
}

/** Results stored before `before` whose scan's owner is on `plan` are past their retention. */
export interface RetentionCutoff {
  plan: PlanKey;
  before: Date;
}

export interface LighthouseReportStore {
  /**
   * Stores (or replaces: an activity attempt may be retried) a scan's results, only while the scan is queued
   * or running, so a scan that ended meanwhile gets none. Returns how many were stored.
   */
  saveWhileInFlight(publicId: string, reports: readonly LighthouseReport[], now: Date): Promise<number>;
  find(publicId: string, formFactor: FormFactor): Promise<StoredLighthouseReport | undefined>;
  /** The scan's stored results, desktop first. */
  list(publicId: string): Promise<LighthouseReportEntry[]>;
  /** Deletes up to `limit` results past their plan's cutoff; returns how many. */
  deleteExpired(cutoffs: readonly RetentionCutoff[], limit: number): Promise<number>;
}

const FORM_FACTOR_ORDER = `case form_factor when 'desktop' then 0 else 1 end`;

/** Every query on `scan_lighthouse_reports`. */
export function createLighthouseReportStore(knex: Knex | Knex.Transaction): LighthouseReportStore {
  const reports = () => knex<ReportRow>('scan_lighthouse_reports');
  const scanId = (publicId: string) => knex('scans').where({ public_id: publicId }).select('id');
  return {
    async saveWhileInFlight(publicId, list, now) {
      if (list.length === 0) return 0;
      const values = list.map((report) => [report.formFactor, report.gzip, report.jsonBytes]);
      const result = await knex.raw(
        `insert into scan_lighthouse_reports (scan_id, form_factor, content, json_bytes, created_at)
         select s.id, v.form_factor, v.content, v.json_bytes, ?
           from scans s, (values ${values.map(() => '(?::text, ?::bytea, ?::integer)').join(', ')}) as v(form_factor, content, json_bytes)
          where s.public_id = ? and s.status in ('queued', 'running')
         on conflict (scan_id, form_factor) do update
           set content = excluded.content, json_bytes = excluded.json_bytes, created_at = excluded.created_at`,
        [now, ...values.flat(), publicId],
      );
      return (result as { rowCount: number }).rowCount;
    },

    async find(publicId, formFactor) {
      const row = await reports().where({ form_factor: formFactor }).whereIn('scan_id', scanId(publicId)).first();
      return row
        ? { formFactor: row.form_factor, gzip: row.content, jsonBytes: row.json_bytes, createdAt: row.created_at }
        : undefined;
    },

    async list(publicId) {
      const rows = (await reports()
        .whereIn('scan_id', scanId(publicId))
        .orderByRaw(FORM_FACTOR_ORDER)
        .select(
          'form_factor',
          'json_bytes',
          'created_at',
          knex.raw('octet_length(content)::integer as gzip_bytes'),
        )) as Array<Omit<ReportRow, 'content' | 'scan_id'> & { gzip_bytes: number }>;
      return rows.map((row) => ({
        formFactor: row.form_factor,
        gzipBytes: row.gzip_bytes,
        jsonBytes: row.json_bytes,
        createdAt: row.created_at,
      }));
    },

    async deleteExpired(cutoffs, limit) {
      if (cutoffs.length === 0) return 0;
      const expired = cutoffs.map(() => '(u.plan = ? and r.created_at < ?)').join(' or ');
      const result = await knex.raw(
        `delete from scan_lighthouse_reports
          where (scan_id, form_factor) in (
            select r.scan_id, r.form_factor
              from scan_lighthouse_reports r
              join scans s on s.id = r.scan_id
              join users u on u.id = s.user_id
             where ${expired}
             limit ?)`,
        [...cutoffs.flatMap((cutoff) => [cutoff.plan, cutoff.before]), limit],
      );
      return (result as { rowCount: number }).rowCount;
    },
  };
}
