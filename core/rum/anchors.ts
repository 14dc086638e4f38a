import type { Culprit } from './script-entities.ts';

/**
 * Fragment ids of the live-data dashboard's diagnostics rows, stable across periods and devices, so that links
 * from elsewhere (a lab report's findings) can point at a culprit or a page. Readable rather than unique in
 * every case: two names that differ only in punctuation share one.
 */

/**
 * A stable fragment id for a culprit row (`culprit-google-analytics`, `culprit-example-com-app-js`,
 * `culprit-inline`), so that links from elsewhere (lab reports) can point at it.
 */
export function culpritAnchor(culprit: Culprit): string {
  if (culprit.kind === 'inline') return 'culprit-inline';
  const name = culprit.kind === 'first-party' ? culprit.name.replace(/^[a-z]+:\/\//i, '') : culprit.name;
  return `culprit-${anchorSlug(name)}`;
}

/** Lower-case letters and digits joined by single hyphens, at most 80 characters ('' → 'root'). */
export function anchorSlug(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'root';
}

/** The LCP phases row of a page (`lcp-page-products-shoes`, `lcp-page-root` for `/`). */
export const lcpPageAnchor = (path: string): string => `lcp-page-${anchorSlug(path)}`;
