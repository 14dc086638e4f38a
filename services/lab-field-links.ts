import { labEvidence, sameElement, scriptKey, type LabEvidence } from '../core/rum/lab-field.ts';
import type { InpCulprit } from '../core/rum/queries.ts';
import type { Finding } from '../core/scoring/types.ts';
import { culpritAnchor } from '../core/rum/anchors.ts';
import type { LabEvidenceEntry, ScanStore } from '../db/store/scans.ts';

/**
 * The links between a site's live data and its owner's lab scans (rules in core/rum/lab-field.ts): a field
 * INP culprit links to the newest scan whose findings name one of its scripts (or whose third-party
 * breakdown names its entity); a page's field LCP element links to the newest scan of that page whose LCP
 * element is the same. The scan report links back the same way. Only the owner's own scans of the site's
 * host, finished in the live data's window, and only each URL's newest scan.
 */

/** What the links need of a culprit: who it is and its script URLs. */
export type CulpritRef = Pick<InpCulprit, 'kind' | 'name' | 'entity'> & { scripts: readonly string[] };

/** How many of the host's scanned URLs are read (each URL's newest scan). */
export const LAB_SCANS_READ = 20;

export interface LabLink {
  scanId: string;
  url: string;
  finishedAt: Date;
  /** The findings that name the culprit's scripts (empty for an entity or element match). */
  findings: Finding[];
}

export interface LabLinks {
  /** By culprit anchor (core/rum/script-entities.ts culpritAnchor). */
  culprits: Map<string, LabLink>;
  /** By page path: the scan of that page whose LCP element is the field's. */
  lcpElements: Map<string, LabLink>;
}

interface Evidenced {
  entry: LabEvidenceEntry;
  evidence: LabEvidence;
}

export async function labScansOfHost(
  scans: Pick<ScanStore, 'latestPerUrlOnHost'>,
  ownerId: number,
  host: string,
  since: Date,
): Promise<Evidenced[]> {
  const entries = await scans.latestPerUrlOnHost(ownerId, host, since, LAB_SCANS_READ);
  return entries.map((entry) => ({ entry, evidence: labEvidence(entry.result) }));
}

const link = (entry: LabEvidenceEntry, findings: Finding[]): LabLink => ({
  scanId: entry.publicId,
  url: entry.url,
  finishedAt: entry.finishedAt,
  findings,
});

/** The findings that name any of the culprit's scripts, or [] when only its entity matched; null: no match. */
function culpritEvidence(culprit: CulpritRef, evidence: LabEvidence): Finding[] | null {
  const findings = new Set<Finding>();
  for (const url of culprit.scripts) {
    const key = scriptKey(url);
    for (const finding of (key && evidence.scripts.get(key)) || []) findings.add(finding);
  }
  if (findings.size > 0) return [...findings];
  return culprit.entity !== null && evidence.entities.has(culprit.entity) ? [] : null;
}

const pathOf = (url: string) => new URL(url).pathname;

/** A page's field LCP element (web-vitals' selector), or null when its values name none. */
export interface FieldLcpPage {
  path: string;
  element: string | null;
}

/** Newest scan first (the store's order), so each culprit and page links to its newest evidence. */
export function linkLabToField(
  scans: Evidenced[],
  culprits: readonly CulpritRef[],
  lcpPages: readonly FieldLcpPage[],
): LabLinks {
  const links: LabLinks = { culprits: new Map(), lcpElements: new Map() };
  for (const culprit of culprits) {
    for (const { entry, evidence } of scans) {
      const findings = culpritEvidence(culprit, evidence);
      if (findings === null) continue;
      links.culprits.set(culpritAnchor(culprit), link(entry, findings));
      break;
    }
  }
  for (const page of lcpPages) {
    const element = page.element;
    if (!element) continue;
    const scan = scans.find(
      ({ entry, evidence }) =>
        pathOf(entry.url) === page.path && evidence.lcpElements.some((lab) => sameElement(lab, element)),
    );
    if (scan) links.lcpElements.set(page.path, link(scan.entry, []));
  }
  return links;
}

/** What one scan's report links to in the live data: its scripts that are field culprits, its LCP element if the field's. */
export interface FieldLinks {
  culprits: Array<{ anchor: string; culprit: CulpritRef; findings: Finding[] }>;
  /** The page's field LCP element, when it is the lab's. */
  lcpElement: { path: string; selector: string } | null;
}

export function linkFieldToLab(
  evidence: LabEvidence,
  scanUrl: string,
  culprits: readonly CulpritRef[],
  lcpPages: readonly FieldLcpPage[],
): FieldLinks {
  const matched = culprits.flatMap((culprit) => {
    const findings = culpritEvidence(culprit, evidence);
    return findings === null ? [] : [{ anchor: culpritAnchor(culprit), culprit, findings }];
  });
  const path = pathOf(scanUrl);
  const selector = lcpPages.find((page) => page.path === path)?.element;
  const same = selector && evidence.lcpElements.some((lab) => sameElement(lab, selector));
  return { culprits: matched, lcpElement: same ? { path, selector } : null };
}
