import type { BfCacheBlockerType, FindingItem, ImageFix, ShiftCause } from '../../core/scan/details.ts';
import { formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';

/**
 * What Lighthouse says in particular about one item of a finding, in words: what caused a layout shift and
 * what it moved, what would shrink an image, the polyfills in a script, the scripts that carry a module twice,
 * the facades known for an embed, why the page left the back/forward cache, when a chained request ended, where
 * in its script a call is.
 */
const LABELS = {
  en: {
    causes: {
      'unsized-image': 'image without width and height',
      'web-font': 'web font',
      'injected-iframe': 'inserted iframe',
      unexplained: 'moved, no cause named',
    } satisfies Record<ShiftCause, string>,
    moved: (selector: string) => `moved ${selector}`,
    shift: 'shift',
    fixes: {
      'responsive-size': 'sized for a larger display',
      'modern-format': 'WebP or AVIF, or stronger compression',
      compression: 'stronger compression',
      'video-format': 'a video instead of an animated GIF',
    } satisfies Record<ImageFix, string>,
    sizes: (file: string, shown: string) => `a ${file} file shown at ${shown}`,
    signals: 'not needed by current browsers',
    copies: 'bundled in',
    facades: 'facades',
    blockers: {
      actionable: 'up to the page',
      'pending-support': 'not yet supported by Chromium',
      circumstantial: 'a circumstance of the test',
    } satisfies Record<BfCacheBlockerType, string>,
    ended: 'ended at',
    place: (line: number, column: number) => `line ${line}, column ${column}`,
  },
  de: {
    causes: {
      'unsized-image': 'Bild ohne Breite und Höhe',
      'web-font': 'Webschrift',
      'injected-iframe': 'eingefügter iframe',
      unexplained: 'verschoben, keine Ursache benannt',
    } satisfies Record<ShiftCause, string>,
    moved: (selector: string) => `verschob ${selector}`,
    shift: 'Verschiebung',
    fixes: {
      'responsive-size': 'für eine größere Anzeige bemessen',
      'modern-format': 'WebP oder AVIF oder stärkere Komprimierung',
      compression: 'stärkere Komprimierung',
      'video-format': 'ein Video statt eines animierten GIFs',
    } satisfies Record<ImageFix, string>,
    sizes: (file: string, shown: string) => `eine Datei von ${file}, angezeigt in ${shown}`,
    signals: 'von aktuellen Browsern nicht gebraucht',
    copies: 'gebündelt in',
    facades: 'Fassaden',
    blockers: {
      actionable: 'liegt an der Seite',
      'pending-support': 'von Chromium noch nicht unterstützt',
      circumstantial: 'ein Umstand des Tests',
    } satisfies Record<BfCacheBlockerType, string>,
    ended: 'endete bei',
    place: (line: number, column: number) => `Zeile ${line}, Spalte ${column}`,
  },
} as const;

const px = (size: string) => size.replace('x', '×');

/** The item's notes, each a short phrase; none for an item Lighthouse says nothing particular about. */
export function itemNotes(item: FindingItem, locale: Locale): string[] {
  const t = LABELS[locale];
  const notes: string[] = [];
  if (item.cause) notes.push(t.causes[item.cause]);
  if (item.moved && item.cause !== 'unexplained') notes.push(t.moved(item.moved));
  if (item.shift !== undefined) notes.push(`${t.shift} ${formatNumber(item.shift, locale, 3)}`);
  if (item.file_px && item.shown_px) notes.push(t.sizes(px(item.file_px), px(item.shown_px)));
  for (const fix of item.fixes ?? []) if (fix !== 'responsive-size' || !item.file_px) notes.push(t.fixes[fix]);
  if (item.signals?.length) notes.push(`${item.signals.join(', ')} (${t.signals})`);
  if (item.copies?.length) notes.push(`${item.label ?? ''} ${t.copies} ${item.copies.join(', ')}`.trim());
  if (item.facades?.length) notes.push(`${item.label ?? ''}, ${t.facades}: ${item.facades.join(', ')}`);
  if (item.reason) notes.push(item.reason);
  if (item.blocker) notes.push(t.blockers[item.blocker]);
  if (item.end_ms !== undefined) notes.push(`${t.ended} ${formatMs(item.end_ms, locale)}`);
  // Counted as editors count, not formatted as numbers are (no "1,024").
  if (item.line !== undefined) notes.push(t.place(item.line, item.column ?? 1));
  return notes;
}
