import type { ScanResultRecord } from '../scan/result.ts';
import type { Finding } from '../scoring/types.ts';

/**
 * Where a lab finding and a field measurement point at the same thing, so each page can link to the other:
 * the same script (origin and path: the collector sends no query, and Lighthouse's URLs lose theirs here), the
 * same third-party entity (both sides classify with third-party-web), or the same element.
 *
 * Elements: Lighthouse writes `div.hero > img#main`, web-vitals `div.hero>img#main`, each going up a different
 * number of ancestors. Two selectors name the same element when, with the spaces around `>` gone and each
 * part's classes sorted and a part with an id reduced to the id, one is the other's tail at a part boundary, and that shared tail is specific: it
 * has an id, or at least two parts. `img` alone against `div>img` is too weak to claim a match.
 */

/** A script URL as both sides can name it: origin and path; null for anything but http(s). */
export function scriptKey(url: string): string | null {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin + parsed.pathname : null;
  } catch {
    return null;
  }
}

function selectorParts(selector: string): string[] {
  return selector
    .split('>')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      // An id names the element alone: web-vitals writes `#hero` where Lighthouse writes `img#hero`.
      const id = /#[^.#\s]+/.exec(part);
      if (id) return id[0];
      const [head, ...classes] = part.split('.');
      return [head, ...classes.sort()].join('.');
    });
}

export function sameElement(a: string, b: string): boolean {
  const [x, y] = [selectorParts(a), selectorParts(b)];
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  if (shorter.length === 0) return false;
  const tail = longer.slice(longer.length - shorter.length);
  if (tail.some((part, i) => part !== shorter[i])) return false;
  return shorter.length >= 2 || shorter.some((part) => part.includes('#'));
}

/** What one scan's lab results point at: scripts with the findings that name them, entities, LCP elements. */
export interface LabEvidence {
  /** scriptKey → the findings whose items name it (in the report's order). */
  scripts: Map<string, Finding[]>;
  /** Third-party entities Lighthouse classified on the page, by name. */
  entities: Set<string>;
  /** The LCP element's selector on each form factor that had one (no repeats). */
  lcpElements: string[];
}

export function labEvidence(result: Pick<ScanResultRecord, 'findings' | 'diagnostics'>): LabEvidence {
  const scripts = new Map<string, Finding[]>();
  for (const finding of result.findings) {
    for (const item of finding.items ?? []) {
      const key = item.url ? scriptKey(item.url) : null;
      if (!key) continue;
      const findings = scripts.get(key) ?? [];
      if (!findings.includes(finding)) scripts.set(key, [...findings, finding]);
    }
  }
  const entities = new Set<string>();
  const lcpElements: string[] = [];
  for (const diagnostics of Object.values(result.diagnostics ?? {})) {
    for (const party of diagnostics.third_parties) entities.add(party.entity);
    const selector = diagnostics.lcp.element?.selector;
    if (selector && !lcpElements.includes(selector)) lcpElements.push(selector);
  }
  return { scripts, entities, lcpElements };
}
