import {
  type BfCacheBlocker,
  type BfCacheBlockerType,
  type BfCacheObservation,
  type ChainRequest,
  type CriticalChain,
  DETAIL_LIMITS,
  type DetailItem,
  type ImageFix,
  type LcpDiscovery,
  type ShiftCulprit,
} from '../../core/scan/details.ts';
import { elementRef, isObject, type Json, number, round, subItems, text } from './lhr-json.ts';

/**
 * The specific diagnosis Lighthouse 13's insights and audits give, read from its JSON: how the LCP image was found, what caused each layout shift, what
 * would shrink each image, which polyfills a script carries, which modules are bundled twice, the longest
 * chain of critical requests and why the page was not restored from the back/forward cache. Lighthouse runs
 * in English (its default locale), so its wording can be matched; test/unit/lighthouse-clues.test.ts checks
 * the patterns against the installed Lighthouse's own strings.
 */

/** lcp-discovery-insight's checklist; null when Lighthouse had none (a text LCP, no LCP). */
export function lcpDiscovery(details: Json | undefined): LcpDiscovery | null {
  if (!details || !Array.isArray(details.items)) return null;
  const checklist = details.items.find((item): item is Json => isObject(item) && item.type === 'checklist');
  const checks = checklist && isObject(checklist.items) ? checklist.items : null;
  const value = (key: string): boolean | undefined => {
    const entry = checks?.[key];
    return isObject(entry) && typeof entry.value === 'boolean' ? entry.value : undefined;
  };
  const [eager, priority, discoverable] = ['eagerlyLoaded', 'priorityHinted', 'requestDiscoverable'].map(value);
  if (eager === undefined || priority === undefined || discoverable === undefined) return null;
  return { lazy_loaded: !eager, fetchpriority_high: priority, in_initial_html: discoverable };
}

/** cls-culprits-insight's causes (CLSCulprits' UIStrings in the trace engine). */
const CAUSE_TEXT: Array<[RegExp, ShiftCulprit['cause']]> = [
  [/^Unsized image element$|^Media element lacking an explicit size$/, 'unsized-image'],
  [/^Web font( loaded)?$/, 'web-font'],
  [/^Injected iframe$/, 'injected-iframe'],
];

/** What caused one shift (a cls-culprits-insight row's sub-items): the culprit's element or URL, by cause. */
export function shiftCulprits(row: Json): ShiftCulprit[] {
  const culprits: ShiftCulprit[] = [];
  for (const sub of subItems(row)) {
    const cause = CAUSE_TEXT.find(([pattern]) => pattern.test(String(sub.cause)))?.[1];
    if (!cause) continue;
    const element = elementRef(sub.extra);
    const url = isObject(sub.extra) && sub.extra.type === 'url' ? text(sub.extra.value) : undefined;
    culprits.push({ cause, ...(element ? { element } : {}), ...(url ? { url } : {}) });
  }
  return culprits.slice(0, DETAIL_LIMITS.rows);
}

/** image-delivery-insight's reasons (ImageDelivery's UIStrings in the trace engine). */
const IMAGE_FIX_TEXT: Array<[RegExp, ImageFix]> = [
  [
    /^This image file is larger than it needs to be \((\d+x\d+)\) for its displayed dimensions \((\d+x\d+)\)/,
    'responsive-size',
  ],
  [/^Using a modern image format/, 'modern-format'],
  [/^Increasing the image compression factor/, 'compression'],
  [/^Using video formats instead of GIFs/, 'video-format'],
];

/** What would make one image smaller (an image-delivery-insight row's sub-items), with the sizes when it is shown smaller. */
export function imageFixes(row: Json): Pick<DetailItem, 'fixes' | 'file_px' | 'shown_px'> {
  const fixes: ImageFix[] = [];
  const found: Pick<DetailItem, 'fixes' | 'file_px' | 'shown_px'> = {};
  for (const sub of subItems(row)) {
    const reason = String(sub.reason);
    for (const [pattern, fix] of IMAGE_FIX_TEXT) {
      const match = pattern.exec(reason);
      if (!match || fixes.includes(fix)) continue;
      fixes.push(fix);
      if (fix === 'responsive-size') [found.file_px, found.shown_px] = [match[1]!, match[2]!];
    }
  }
  return fixes.length ? { ...found, fixes } : {};
}

/** The polyfills and transforms legacy-javascript-insight found in one script (its sub-items' signals). */
export function legacySignals(row: Json): string[] {
  const names = subItems(row)
    .map((sub) => text(sub.signal, 100))
    .filter((signal): signal is string => !!signal);
  return [...new Set(names)].slice(0, DETAIL_LIMITS.rows);
}

/** One module duplicated-javascript-insight found in more than one script: its source, the scripts, the bytes. */
export function duplicatedModule(row: Json): DetailItem | null {
  const source = text(row.source);
  const copies = [
    ...new Set(
      subItems(row)
        .map((sub) => text(sub.url))
        .filter((url): url is string => !!url && /^https?:/.test(url)),
    ),
  ].slice(0, DETAIL_LIMITS.rows);
  if (!source || copies.length === 0) return null;
  const wasted = number(row.wastedBytes);
  return {
    label: source,
    url: copies[0]!,
    copies,
    ...(wasted !== undefined ? { wasted_bytes: round(wasted) } : {}),
  };
}

interface ChainNode {
  url: string;
  end: number;
  bytes: number;
  longest: boolean;
  children: ChainNode[];
}

function chainNodes(value: unknown): ChainNode[] {
  if (!isObject(value)) return [];
  return Object.values(value)
    .filter(isObject)
    .map((node) => ({
      url: text(node.url) ?? '',
      end: number(node.navStartToEndTime) ?? 0,
      bytes: number(node.transferSize) ?? 0,
      longest: node.isLongest === true,
      children: chainNodes(node.children),
    }));
}

/**
 * The longest chain of critical requests in network-dependency-tree-insight: the path Lighthouse marks
 * `isLongest`, from the document down. Null when there is no chain beyond the document.
 */
export function criticalChain(details: Json | undefined): CriticalChain | null {
  const sections = details && Array.isArray(details.items) ? details.items.filter(isObject) : [];
  const tree = sections
    .map((section) => section.value)
    .find((value): value is Json => isObject(value) && value.type === 'network-tree');
  if (!tree) return null;
  const path: ChainRequest[] = [];
  let level = chainNodes(tree.chains);
  for (;;) {
    const next = level.find((node) => node.longest);
    if (!next) break;
    path.push({ url: next.url, end_ms: round(next.end), transfer_bytes: round(next.bytes) });
    level = next.children;
  }
  if (path.length < 2) return null;
  const duration = isObject(tree.longestChain) ? number(tree.longestChain.duration) : undefined;
  return {
    length: path.length,
    duration_ms: round(duration ?? path.at(-1)!.end_ms),
    requests: path.slice(0, DETAIL_LIMITS.rows),
  };
}

/** An entity's request URLs from third-parties-insight (its sub-items), largest first. */
export function entityUrls(row: Json): string[] {
  return subItems(row)
    .map((sub) => ({ url: text(sub.url), bytes: number(sub.transferSize) ?? 0 }))
    .filter((sub): sub is { url: string; bytes: number } => !!sub.url && /^https?:/.test(sub.url))
    .sort((a, b) => b.bytes - a.bytes)
    .map((sub) => sub.url)
    .slice(0, DETAIL_LIMITS.rows);
}

/** bf-cache's failure types, as it words them (its UIStrings). */
const BLOCKER_TYPES: Record<string, BfCacheBlockerType> = {
  Actionable: 'actionable',
  'Pending browser support': 'pending-support',
  'Not actionable': 'circumstantial',
};

/**
 * Lighthouse's bf-cache audit (it leaves the page for another and goes back): restored when it passed, else each
 * reason with Chromium's id (`protocolReason`), its kind and its frames. Null when the audit could not tell (no
 * score: it failed, or the browser cannot test it); undefined when it did not run.
 */
export function bfCacheObservation(
  audit: { score: number | null; details?: Json } | undefined,
): BfCacheObservation | null | undefined {
  if (!audit) return undefined;
  if (audit.score === null) return null;
  const blockers: BfCacheBlocker[] = [];
  for (const row of Array.isArray(audit.details?.items) ? audit.details.items.filter(isObject) : []) {
    const reason = text(row.protocolReason, 100);
    const type = BLOCKER_TYPES[String(row.failureType)];
    if (!reason || !type || blockers.some((b) => b.reason === reason)) continue;
    const frames = subItems(row)
      .map((sub) => text(sub.frameUrl))
      .filter((url): url is string => !!url);
    blockers.push({ reason, type, frames: [...new Set(frames)].slice(0, DETAIL_LIMITS.rows) });
  }
  return { restored: audit.score === 1 && blockers.length === 0, blockers: blockers.slice(0, DETAIL_LIMITS.rows) };
}
