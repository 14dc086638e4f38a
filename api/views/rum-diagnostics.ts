import { culpritAnchor, lcpPageAnchor } from '../../core/rum/anchors.ts';
import { SLOW_INTERACTION_MS } from '../../core/rum/diagnostics.ts';
import type { InpCulprits, LcpPhaseRow, LcpPhases } from '../../core/rum/queries.ts';

/** The diagnostics endpoints' `data` (api/views/rum-schemas.ts rumInpCulpritsSchema, rumLcpPhasesSchema). */

export function rumInpCulpritsView(result: InpCulprits) {
  return {
    slow_threshold_ms: SLOW_INTERACTION_MS,
    interactions: result.interactions,
    slow_interactions: result.slowInteractions,
    slow_with_scripts: result.slowWithScripts,
    culprits: result.culprits.map((culprit) => ({
      culprit: culprit.name,
      kind: culprit.kind,
      entity: culprit.entity,
      anchor: culpritAnchor(culprit),
      scripts: culprit.scripts,
      function: culprit.functionName,
      invoker: culprit.invoker,
      slow_interactions: culprit.slowInteractions,
      share: Math.round(culprit.share * 10_000) / 10_000,
      inp_p75: culprit.inpP75,
      script_time_p75: culprit.scriptTimeP75,
    })),
  };
}

const phaseRowView = (row: LcpPhaseRow) => ({
  p75: row.p75,
  samples: row.samples,
  attribution: row.attribution && { target: row.attribution.target || null, url: row.attribution.url || null },
  phase_samples: row.phaseSamples,
  phases: row.phases,
});

export function rumLcpPhasesView(result: LcpPhases) {
  return {
    site: result.site && phaseRowView(result.site),
    pages: result.pages.map((page) => ({ path: page.path, anchor: lcpPageAnchor(page.path), ...phaseRowView(page) })),
  };
}
