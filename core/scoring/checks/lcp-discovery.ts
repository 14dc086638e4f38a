import { METRIC_THRESHOLDS } from '../../metric-thresholds.ts';
import type { DetailItem, ElementRef, LcpPhases, Savings } from '../../scan/details.ts';
import { FORM_FACTORS, type FormFactor, type FormFactorObservation } from '../../scan/observation.ts';
import { mergeItems } from '../evidence.ts';
import { impactOf } from '../priority.ts';
import { type Clue, defineCheck, type FindingEvidence, pass } from '../types.ts';

/**
 * The LCP as Lighthouse diagnoses it: how the browser found and fetched the LCP image (its LCP request
 * discovery insight), and which part of the LCP took longest (its LCP breakdown).
 */

/** The discovery faults, in the order they are told: each is a clue (core/i18n/clues.ts). */
const DISCOVERY_CLUES = ['lcp.lazy-loaded', 'lcp.not-in-html', 'lcp.no-fetchpriority'] as const;

function discoveryFaults(o: FormFactorObservation): string[] {
  const found = o.diagnostics?.lcp.discovery;
  if (!found) return [];
  const faults: Record<(typeof DISCOVERY_CLUES)[number], boolean> = {
    'lcp.lazy-loaded': found.lazy_loaded,
    'lcp.not-in-html': !found.in_initial_html,
    'lcp.no-fetchpriority': !found.fetchpriority_high,
  };
  return DISCOVERY_CLUES.filter((clue) => faults[clue]);
}

const elementItem = (element: ElementRef | null | undefined): DetailItem[] =>
  element
    ? [
        {
          selector: element.selector,
          snippet: element.snippet,
          ...(element.label ? { label: element.label } : {}),
          ...(element.box ? { box: element.box } : {}),
        },
      ]
    : [];

export const lcpDiscovery = defineCheck({
  id: 'speed.lcp-discovery',
  category: 'speed',
  measures:
    "How the browser found and fetched the LCP image (Lighthouse's LCP request discovery): lazy-loaded, not in the HTML, or without fetchpriority=high. Its saving: the LCP's resource load delay.",
  weight: 0,
  codes: ['speed.lcp-discovery'],
  run(obs, { finding }) {
    const failing = FORM_FACTORS.filter((f) => discoveryFaults(obs[f]).length > 0);
    if (failing.length === 0) return pass();
    const clues: Clue[] = DISCOVERY_CLUES.filter((code) =>
      failing.some((f) => discoveryFaults(obs[f]).includes(code)),
    ).map((code) => ({ code }));
    // Lighthouse states no saving for this insight; the load delay is the time between the document's first byte
    // and the image's request, which an image found and fetched at once does not spend.
    const savings: Partial<Record<FormFactor, Savings>> = {};
    for (const f of failing) savings[f] = { ms: obs[f].diagnostics?.lcp.phases?.load_delay_ms ?? null, bytes: null };
    const impact = impactOf(savings);
    const items = mergeItems(failing.map((f) => [f, elementItem(obs[f].diagnostics?.lcp.element)] as const));
    // A warning when the image is found late and the LCP is over its target; a hint otherwise.
    const late =
      clues.some((c) => c.code !== 'lcp.no-fetchpriority') &&
      failing.some((f) => Math.round(obs[f].metrics.lcpMs) > METRIC_THRESHOLDS.LCP.good);
    const evidence: FindingEvidence = { form_factors: failing, items, savings, clues, ...(impact ? { impact } : {}) };
    return {
      score: 1,
      applicable: true,
      findings: [
        finding('speed.lcp-discovery', late ? 'warning' : 'info', { element: items[0]?.selector ?? '' }, evidence),
      ],
    };
  },
});

const PHASE_CLUES: Record<keyof LcpPhases, string> = {
  ttfb_ms: 'lcp.phase-ttfb',
  load_delay_ms: 'lcp.phase-load-delay',
  load_time_ms: 'lcp.phase-load-time',
  render_delay_ms: 'lcp.phase-render-delay',
};

/**
 * The slow LCP's clues on one form factor (the worse one): its element, and the part of the LCP that took
 * longest in Lighthouse's breakdown (of the real, unthrottled load) with its share, which decides what to do.
 */
export function lcpPhaseClues(o: FormFactorObservation): FindingEvidence {
  const { element, phases } = o.diagnostics?.lcp ?? { element: null, phases: null };
  const clues: Clue[] = element ? [{ code: 'lcp.element', params: { element: element.selector } }] : [];
  if (phases) {
    const parts = (Object.keys(PHASE_CLUES) as Array<keyof LcpPhases>).map((key) => [key, phases[key] ?? 0] as const);
    const total = parts.reduce((sum, [, ms]) => sum + ms, 0);
    const [longest, ms] = parts.reduce((a, b) => (b[1] > a[1] ? b : a));
    if (total > 0)
      clues.push({ code: PHASE_CLUES[longest], params: { phase_ms: ms, share: Math.round((ms / total) * 100) } });
  }
  return clues.length ? { clues } : {};
}

export const LCP_CHECKS = [lcpDiscovery];
