import { LCP_PHASES, SLOW_INTERACTION_MS, type LcpPhase } from '../../core/rum/diagnostics.ts';
import { roundMetric } from '../../core/rum/metrics.ts';
import type { TimeWindow } from '../../core/rum/periods.ts';
import type { DeviceFilter, LcpPhaseRow, RumQueries } from '../../core/rum/queries.ts';
import {
  CULPRIT_SCRIPTS_LISTED,
  CULPRITS_LISTED,
  culpritOf,
  FIRST_PARTY_MARKER,
  hostGroupKey,
  UNKNOWN_HOST_PREFIX,
} from '../../core/rum/script-entities.ts';
import { rows, rowsOf, type RumDataSource } from './rum-rows.ts';
import { int, join, num, part, sql, str } from './sql.ts';

/**
 * The live-data diagnostics: which scripts slow INP interactions down (top INP culprits) and where an LCP's
 * time goes (its phases). The same dedupe as every live-data read (rum-queries.ts): per (page view, metric id)
 * the values of the highest seq, scripts and phases included (`argMax(..., seq)`), so an older send's scripts
 * never count. Percentiles are exact (quantileExact, rank floor(0.75 × n)).
 */

/** One INP value per interaction: its value and its long-animation-frame scripts, from the highest seq. */
function interactions(source: RumDataSource, siteId: number, window: TimeWindow, device: DeviceFilter, path?: string) {
  return part`SELECT dedupe_key AS k, argMax(value, seq) AS v, argMax(script_urls, seq) AS urls,
      argMax(script_functions, seq) AS fns, argMax(script_invokers, seq) AS invs, argMax(script_durations, seq) AS durs
    FROM ${rowsOf(source, siteId, window, device, 'INP', path)} GROUP BY dedupe_key`;
}

const slowest = num(SLOW_INTERACTION_MS);

/** Counts and the script hosts of the slow interactions (the hosts to map to culprits). */
function overviewSql(from: ReturnType<typeof interactions>) {
  return sql`SELECT count() AS interactions, countIf(v > ${slowest}) AS slow,
      countIf(v > ${slowest} AND length(urls) > 0) AS with_scripts,
      groupUniqArrayArrayIf(arrayMap(u -> lower(domain(u)), urls), v > ${slowest}) AS hosts
    FROM (${from}) GROUP BY 1`;
}

/**
 * Per culprit over the slow interactions: each interaction's scripts (ARRAY JOIN) get their culprit key from
 * the host table (first-party hosts: the marker, then the URL; hosts left out of the table: by host); per
 * (interaction, culprit) the script time adds up and its longest script names the function and invoker; per
 * (culprit, function, invoker) the values stay arrays, so the culprit's p75s are exact over its interactions.
 */
function culpritsSql(from: ReturnType<typeof interactions>, hostKeys: ReadonlyMap<string, string>) {
  const hosts = [...hostKeys.keys()];
  const group = hosts.length
    ? part`transform(h, [${join(hosts.map(str))}], [${join(hosts.map((host) => str(hostKeys.get(host)!)))}], concat(${str(UNKNOWN_HOST_PREFIX)}, h))`
    : part`concat(${str(UNKNOWN_HOST_PREFIX)}, h)`;
  return sql`SELECT c, sum(m) AS n, quantileExactArray(0.75)(vs) AS inp_p75, quantileExactArray(0.75)(ts) AS time_p75,
      argMax(f, tuple(m, f, i)) AS fn, argMax(i, tuple(m, f, i)) AS inv,
      arraySlice(arraySort(groupUniqArrayArray(su)), 1, ${int(CULPRIT_SCRIPTS_LISTED)}) AS scripts
    FROM (
      SELECT c, f, i, count() AS m, groupArray(iv) AS vs, groupArray(t) AS ts, groupUniqArrayArray(us) AS su
      FROM (
        SELECT k, c, any(v) AS iv, sum(dur) AS t, argMax(fn, tuple(dur, fn, inv)) AS f,
          argMax(inv, tuple(dur, fn, inv)) AS i, groupUniqArrayIf(url, url != '') AS us
        FROM (
          SELECT k, v, url, fn, inv, dur, lower(domain(url)) AS h, if(h = '', '', ${group}) AS g,
            if(g = ${str(FIRST_PARTY_MARKER)}, concat(g, url), g) AS c
          FROM (${from} HAVING v > ${slowest})
          ARRAY JOIN urls AS url, fns AS fn, invs AS inv, durs AS dur
        )
        GROUP BY k, c
      )
      GROUP BY c, f, i
    )
    GROUP BY c ORDER BY n DESC, inp_p75 DESC, c ASC LIMIT ${int(CULPRITS_LISTED)}`;
}

/** Column names of the phase arrays and their p75s, in LCP_PHASES order (`ph1`..`ph4`). */
const phaseColumn = (i: number) => part`ph${int(i + 1)}`;
const PHASE_COUNT = LCP_PHASES.length;

/**
 * LCP p75 with its most frequent attribution (as `pages`) and each phase's p75 over the values that carry
 * phases; `byPath` groups per page (slowest first, at most `limit`), else one row for the whole site.
 */
function lcpPhasesSql(
  source: RumDataSource,
  siteId: number,
  window: TimeWindow,
  device: DeviceFilter,
  byPath: { limit: number } | null,
) {
  const has = part`length(ph) = ${int(PHASE_COUNT)}`;
  const arrays = join(LCP_PHASES.map((_, i) => part`groupArrayIf(ph[${int(i + 1)}], ${has}) AS ${phaseColumn(i)}`));
  const p75s = join(LCP_PHASES.map((_, i) => part`quantileExactArray(0.75)(${phaseColumn(i)}) AS p_${phaseColumn(i)}`));
  return sql`SELECT p AS path, quantileExactArray(0.75)(vs) AS p75, sum(n) AS samples, argMax(t, k) AS target,
      argMax(u, k) AS url, sum(np) AS phase_samples, ${p75s}
    FROM (
      SELECT p, t, u, groupArray(v) AS vs, count() AS n, countIf(${has}) AS np, ${arrays},
        tuple(t != '' OR u != '', count(), t, u) AS k
      FROM (
        SELECT argMax(value, seq) AS v, ${byPath ? part`argMax(path, seq)` : part`''`} AS p,
          argMax(attr_target, seq) AS t, argMax(attr_url, seq) AS u, argMax(phases, seq) AS ph
        FROM ${rowsOf(source, siteId, window, device, 'LCP')} GROUP BY dedupe_key
      )
      GROUP BY p, t, u
    )
    GROUP BY p ${byPath ? part`ORDER BY p75 DESC, samples DESC, path ASC LIMIT ${int(byPath.limit, 1, 10_000)}` : part``}`;
}

type PhaseRow = {
  path: string;
  p75: number;
  samples: string;
  target: string;
  url: string;
  phase_samples: string;
} & Record<string, number | null>;

function phaseRow(row: PhaseRow): LcpPhaseRow {
  const phases = Object.fromEntries(
    LCP_PHASES.map((phase, i) => {
      const value = row[`p_ph${i + 1}`];
      return [phase, typeof value === 'number' ? roundMetric('LCP', value) : null];
    }),
  ) as Record<LcpPhase, number | null>;
  return {
    p75: roundMetric('LCP', row.p75),
    samples: Number(row.samples),
    attribution: row.target || row.url ? { target: row.target, url: row.url } : null,
    phaseSamples: Number(row.phase_samples),
    phases,
  };
}

export function rumDiagnosticsQueries(source: RumDataSource): Pick<RumQueries, 'inpCulprits' | 'lcpPhases'> {
  return {
    async inpCulprits(site, window, device, path) {
      const from = interactions(source, site.id, window, device, path);
      const [overview] = await rows<{ interactions: string; slow: string; with_scripts: string; hosts: string[] }>(
        source,
        overviewSql(from),
      );
      const counts = {
        interactions: Number(overview?.interactions ?? 0),
        slowInteractions: Number(overview?.slow ?? 0),
        slowWithScripts: Number(overview?.with_scripts ?? 0),
      };
      if (!overview || counts.slowWithScripts === 0) return { ...counts, culprits: [] };
      const hostKeys = new Map<string, string>();
      for (const host of overview.hosts) {
        const key = hostGroupKey(host, site.domain);
        // Hosts that group by themselves are the query's default: the table stays as short as it can.
        if (host !== '' && key !== `${UNKNOWN_HOST_PREFIX}${host}`) hostKeys.set(host, key);
      }
      const result = await rows<{
        c: string;
        n: string;
        inp_p75: number;
        time_p75: number;
        fn: string;
        inv: string;
        scripts: string[];
      }>(source, culpritsSql(from, hostKeys));
      return {
        ...counts,
        culprits: result.map((row) => ({
          ...culpritOf(row.c),
          slowInteractions: Number(row.n),
          share: Number(row.n) / counts.slowInteractions,
          inpP75: roundMetric('INP', row.inp_p75),
          scriptTimeP75: roundMetric('INP', row.time_p75),
          functionName: row.fn,
          invoker: row.inv,
          scripts: row.scripts,
        })),
      };
    },

    async lcpPhases(siteId, window, limit, device) {
      const [site, pages] = await Promise.all([
        rows<PhaseRow>(source, lcpPhasesSql(source, siteId, window, device, null)),
        rows<PhaseRow>(source, lcpPhasesSql(source, siteId, window, device, { limit })),
      ]);
      return {
        site: site[0] ? phaseRow(site[0]) : null,
        pages: pages.map((row) => ({ path: row.path, ...phaseRow(row) })),
      };
    },
  };
}
