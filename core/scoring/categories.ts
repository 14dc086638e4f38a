import type { Locale } from '../i18n/locale.ts';

/**
 * The score categories, declared once, in report order. Types, overall weights, order, labels and the API's
 * schemas all derive from this list. `wordpressOnly`: counted in `overall` only for WordPress sites (and 100
 * elsewhere).
 */
export const SCORE_CATEGORIES = [
  {
    key: 'speed',
    weight: 0.5,
    wordpressOnly: false,
    label: { en: 'Speed', de: 'Geschwindigkeit' },
    inSentence: { en: 'speed', de: 'Geschwindigkeit' },
  },
  {
    key: 'images',
    weight: 0.15,
    wordpressOnly: false,
    label: { en: 'Images', de: 'Bilder' },
    inSentence: { en: 'images', de: 'Bilder' },
  },
  {
    key: 'caching',
    weight: 0.15,
    wordpressOnly: false,
    label: { en: 'Caching', de: 'Caching' },
    inSentence: { en: 'caching', de: 'Caching' },
  },
  {
    key: 'technical',
    weight: 0.2,
    wordpressOnly: false,
    label: { en: 'Technical', de: 'Technik' },
    inSentence: { en: 'technical', de: 'Technik' },
  },
  {
    key: 'wordpress',
    weight: 0.1,
    wordpressOnly: true,
    label: { en: 'WordPress', de: 'WordPress' },
    inSentence: { en: 'WordPress', de: 'WordPress' },
  },
] as const satisfies ReadonlyArray<{
  key: string;
  weight: number;
  wordpressOnly: boolean;
  label: Record<Locale, string>;
  inSentence: Record<Locale, string>;
}>;

export type ScoreCategory = (typeof SCORE_CATEGORIES)[number]['key'];
export type ScoreKey = 'overall' | ScoreCategory;
export type ScanScores = Record<ScoreKey, number>;

export const CATEGORY_KEYS: readonly ScoreCategory[] = SCORE_CATEGORIES.map((c) => c.key);
/** `overall` first, then the categories in report order. */
export const SCORE_KEYS: readonly ScoreKey[] = ['overall', ...CATEGORY_KEYS];
export const OVERALL_LABEL: Record<Locale, string> = { en: 'Overall', de: 'Gesamt' };

export const categoryOf = (key: ScoreCategory) => SCORE_CATEGORIES.find((c) => c.key === key)!;
export const scoreLabel = (key: ScoreKey, locale: Locale): string =>
  key === 'overall' ? OVERALL_LABEL[locale] : categoryOf(key).label[locale];
export const categoryRank = (key: ScoreCategory): number => CATEGORY_KEYS.indexOf(key);
