import { type Box, DETAIL_LIMITS, type ElementRef } from '../../core/scan/details.ts';

/**
 * Reading Lighthouse's loose JSON (audit details, nodes, tables) safely: every value is checked before it is
 * used, strings are cut to DETAIL_LIMITS. Shared by the details (details.ts) and the clues (clues.ts) readers.
 */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const text = (value: unknown, max: number = DETAIL_LIMITS.text): string | undefined =>
  typeof value === 'string' ? value.slice(0, max) : undefined;
export const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
export const round = (value: number): number => Math.round(value);

function box(node: Json): Box | null {
  const rect = node.boundingRect;
  if (!isObject(rect)) return null;
  const [top, left, width, height] = [rect.top, rect.left, rect.width, rect.height].map(number);
  if (
    top === undefined ||
    left === undefined ||
    width === undefined ||
    height === undefined ||
    width <= 0 ||
    height <= 0
  )
    return null;
  return { top: round(top), left: round(left), width: round(width), height: round(height) };
}

export function elementRef(node: unknown): ElementRef | null {
  if (!isObject(node) || node.type !== 'node') return null;
  const selector = text(node.selector);
  if (!selector) return null;
  return {
    selector,
    snippet: text(node.snippet, DETAIL_LIMITS.snippet) ?? '',
    label: text(node.nodeLabel) ?? '',
    box: box(node),
  };
}

/** The table rows of a details object: a table's items, or the first table inside a list (insights nest them). */
export function tableRows(details: Json | undefined): Json[] {
  if (!details) return [];
  if (details.type === 'list' && Array.isArray(details.items)) {
    const table = details.items.find((item): item is Json => isObject(item) && item.type === 'table');
    return tableRows(table);
  }
  return Array.isArray(details.items) ? details.items.filter(isObject) : [];
}

/** The node of a details list that is not a table (lcp-breakdown-insight, lcp-discovery-insight name their element so). */
export function listNode(details: Json | undefined): ElementRef | null {
  if (!details || details.type !== 'list' || !Array.isArray(details.items)) return null;
  return elementRef(details.items.find((item) => isObject(item) && item.type === 'node'));
}

/** A table row's sub-items (Lighthouse's `subItems.items`). */
export const subItems = (row: Json): Json[] =>
  isObject(row.subItems) && Array.isArray(row.subItems.items) ? row.subItems.items.filter(isObject) : [];
