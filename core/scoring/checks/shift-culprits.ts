import type { DetailItem, LayoutShift, ShiftCause } from '../../scan/details.ts';
import type { FormFactor, ScanObservation } from '../../scan/observation.ts';
import { mergeItems } from '../evidence.ts';
import type { Clue, FindingEvidence } from '../types.ts';

/**
 * What caused the layout shifts, as Lighthouse's cls-culprits-insight names it: the image without dimensions
 * (its element), the web font or the inserted iframe (its URL) that made the content move, beside the element
 * that moved. A shift Lighthouse names no cause for is listed by the element that moved, as unexplained.
 */

const shown = (score: number) => Math.round(score * 1000) / 1000;

/** One form factor's culprits, one item each (its shifts' scores added up), the largest first. */
function culpritItems(shifts: readonly LayoutShift[]): DetailItem[] {
  const byKey = new Map<string, DetailItem>();
  const ordered = [...shifts].sort((a, b) => b.score - a.score);
  for (const shift of ordered) {
    const moved = shift.element;
    const culprits = shift.culprits?.length
      ? shift.culprits.map((c) => ({ cause: c.cause as ShiftCause, element: c.element, url: c.url }))
      : [{ cause: 'unexplained' as ShiftCause, element: moved, url: undefined }];
    for (const culprit of culprits) {
      // An iframe Lighthouse could not name a URL for is listed by the element that moved.
      const element = culprit.url ? undefined : (culprit.element ?? moved);
      const key = culprit.url ?? element!.selector;
      const known = byKey.get(key);
      if (known) {
        known.shift = shown(known.shift! + shift.score);
        continue;
      }
      byKey.set(key, {
        ...(culprit.url ? { url: culprit.url } : {}),
        ...(element
          ? {
              selector: element.selector,
              snippet: element.snippet,
              ...(element.label ? { label: element.label } : {}),
              ...(element.box ? { box: element.box } : {}),
            }
          : {}),
        cause: culprit.cause,
        moved: moved.selector,
        shift: shown(shift.score),
      });
    }
  }
  return [...byKey.values()].sort((a, b) => b.shift! - a.shift!);
}

/**
 * The CLS finding's items and clues on the form factors over target: each culprit with its cause, the element
 * it moved and its shift score (the larger of the form factors), the largest first; one clue per cause, naming
 * its largest culprit. Nothing for results whose runner kept no culprits (the audit's items stand).
 */
export function shiftEvidence(obs: ScanObservation, over: FormFactor[]): FindingEvidence {
  const measured = over.filter((f) => obs[f].diagnostics?.layout_shifts.some((s) => s.culprits !== undefined));
  if (measured.length === 0) return {};
  const items = mergeItems(measured.map((f) => [f, culpritItems(obs[f].diagnostics!.layout_shifts)] as const)).sort(
    (a, b) => (b.shift ?? 0) - (a.shift ?? 0),
  );
  const clues: Clue[] = [];
  for (const item of items) {
    if (clues.some((c) => c.code === `cls.${item.cause}`)) continue;
    clues.push({
      code: `cls.${item.cause}`,
      params: { culprit: item.url ?? item.selector ?? '', moved: item.moved ?? '', shift: item.shift ?? 0 },
    });
  }
  return items.length ? { items, clues } : {};
}
