import type { Scan } from '../core/scan/scan.ts';
import { scanChanges, type MetricChange } from '../core/scan/previous.ts';
import { normaliseScanUrl } from '../core/url.ts';
import { HISTORY_SCANS } from '../core/verdicts/verdict.ts';
import type { PreviousScanEntry, ScanStore } from '../db/store/scans.ts';

export interface ScanComparison {
  previous: PreviousScanEntry;
  changes: MetricChange[];
}

/**
 * Who is looking: the owner (their report, the API), anyone at a public scan's report, anyone with its share
 * link. Only the owner may learn anything of their private scans.
 */
export type ComparisonViewer = 'owner' | 'public' | 'share';

/** Whether the viewer may see the previous scan at all: its owner always, others only one as open as this one. */
export const previousVisibleTo = (viewer: ComparisonViewer, previous: PreviousScanEntry): boolean =>
  viewer === 'owner' || (viewer === 'public' ? previous.isPublic : previous.shareToken !== null);

/**
 * A finished scan compared with its owner's previous finished scan of the same page: the scan its report's
 * "Scan again" was pressed on, else the latest of the same URL (as core/url.ts normalises it) that finished
 * before it. Every scan measures both form factors with the runner's one set of Lighthouse settings, so scans
 * of one URL compare form factor by form factor. For the owner the noise band of single values is learned from
 * the URL's history up to this scan, as on the compare page; others get the default bands, since a band learned
 * from the owner's other scans would tell something of them. Null for a scan not finished, with no such earlier
 * scan, or whose previous scan the viewer may not see (then no older one takes its place).
 */
export async function compareWithPrevious(
  scans: ScanStore,
  scan: Scan,
  viewer: ComparisonViewer,
): Promise<ScanComparison | null> {
  if (scan.status !== 'finished' || !scan.result || !scan.finishedAt) return null;
  const normalised = normaliseScanUrl(scan.url);
  const url = normalised.ok ? normalised.url : scan.url;
  const previous = await scans.previousFinished({
    publicId: scan.publicId,
    userId: scan.userId,
    url,
    finishedAt: scan.finishedAt,
  });
  if (!previous || !previousVisibleTo(viewer, previous)) return null;
  const history = viewer === 'owner' ? await scans.urlHistory(scan.userId, url, scan.finishedAt, HISTORY_SCANS) : [];
  return {
    previous,
    changes: scanChanges(
      previous.result,
      scan.result,
      history.map((entry) => entry.result),
    ),
  };
}
