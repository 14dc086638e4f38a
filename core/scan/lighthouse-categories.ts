import type { Locale } from '../i18n/locale.ts';
import { DETAIL_LIMITS } from './details.ts';
import { FORM_FACTORS, type FormFactor } from './form-factor.ts';

/**
 * Lighthouse's own four category scores and the audits it failed outside performance, as every scan runs them
 * (activities/lighthouse/settings.ts) and keeps them: per form factor in the observation, in the stored result
 * (`lighthouse`), in the API as the extension `result.lighthouse`, on the report, share and compare pages, in a
 * target's charts and as budget minimums (core/monitoring/budgets.ts). They are Lighthouse's numbers, beside
 * our own scores (core/scoring), never mixed into them.
 */
export const LIGHTHOUSE_CATEGORIES = [
  { key: 'performance', id: 'performance', label: { en: 'Performance', de: 'Leistung' } },
  { key: 'accessibility', id: 'accessibility', label: { en: 'Accessibility', de: 'Barrierefreiheit' } },
  { key: 'best_practices', id: 'best-practices', label: { en: 'Best practices', de: 'Best Practices' } },
  { key: 'seo', id: 'seo', label: { en: 'SEO', de: 'SEO' } },
] as const satisfies ReadonlyArray<{ key: string; id: string; label: Record<Locale, string> }>;

/** A category as the API, budgets and the stored result name it (snake case, as a flow step's scores). */
export type LighthouseCategoryKey = (typeof LIGHTHOUSE_CATEGORIES)[number]['key'];
export const LIGHTHOUSE_CATEGORY_KEYS: readonly LighthouseCategoryKey[] = LIGHTHOUSE_CATEGORIES.map((c) => c.key);
/** Lighthouse's own ids, as its `onlyCategories` setting and its result's `categories` name them. */
export const LIGHTHOUSE_CATEGORY_IDS: string[] = LIGHTHOUSE_CATEGORIES.map((c) => c.id);

export const lighthouseCategoryLabel = (key: LighthouseCategoryKey, locale: Locale): string =>
  LIGHTHOUSE_CATEGORIES.find((c) => c.key === key)!.label[locale];

/** Each category's score, 0–100 as Lighthouse's report shows it (its 0–1 score × 100, rounded); null where it computed none. */
export type LighthouseCategoryScores = Record<LighthouseCategoryKey, number | null>;

/** The categories whose failed audits are listed (performance's are our findings already). */
export const LISTED_CATEGORIES = [
  'accessibility',
  'best_practices',
  'seo',
] as const satisfies readonly LighthouseCategoryKey[];
export type ListedCategory = (typeof LISTED_CATEGORIES)[number];

/** What is kept of the failed audits; every list is bounded here and nowhere else. */
export const FAILURE_LIMITS = {
  /** Failed audits kept per form factor, the heaviest first. */
  audits: 40,
  /** Items (elements, resources, messages) kept per audit: Lighthouse's first ones. */
  items: DETAIL_LIMITS.items,
  /** Characters kept of a title or of an item's text. */
  text: DETAIL_LIMITS.text,
} as const;

/** One thing Lighthouse names under a failed audit: an element, a resource, a message, or several of them. */
export interface FailureItem {
  selector?: string;
  snippet?: string;
  /** Lighthouse's short label of the element (its text, alt text, ...). */
  label?: string;
  url?: string;
  /** A message or value of the row (a console error, a deprecation, a link's text). */
  text?: string;
}

/** One audit Lighthouse failed (score under 0.9, as its report counts failed) on one form factor. */
export interface AuditFailure {
  /** Lighthouse's audit id (`image-alt`, `meta-description`, ...). */
  id: string;
  /** The listed categories that count it (image-alt and document-title are in accessibility and SEO). */
  categories: ListedCategory[];
  /** Lighthouse's title of the failed audit, in each language (its own translations). */
  title: Record<Locale, string>;
  /** Lighthouse's "learn more" link, when it gives one. */
  help_url: string | null;
  /** The audit's weight in its category (the larger where two count it); 0: shown, not counted in the score. */
  weight: number;
  score: number;
  /** Every item Lighthouse listed, though only the first FAILURE_LIMITS.items are kept. */
  item_count: number;
  items: FailureItem[];
}

/** One form factor's part of the observation (activities/lighthouse/categories.ts reads it from Lighthouse's result). */
export interface FormFactorLighthouse {
  categories: LighthouseCategoryScores;
  failures: AuditFailure[];
}

/** A failed audit of the scan: one for both form factors, its items merged by element or URL. */
export interface ScanAuditFailure extends Omit<AuditFailure, 'items' | 'score'> {
  /** The form factors it failed on. */
  form_factors: FormFactor[];
  /** The lower score of the form factors it failed on. */
  score: number;
  items: Array<FailureItem & { form_factors: FormFactor[] }>;
}

/** What the stored result keeps of Lighthouse's categories (ScanResultRecord's `lighthouse`). */
export interface ScanLighthouse {
  categories: Record<FormFactor, LighthouseCategoryScores>;
  /** Accessibility, best-practices and SEO audits failed on either form factor, heaviest first. */
  failures: ScanAuditFailure[];
}

const itemKey = (item: FailureItem) =>
  JSON.stringify([item.selector ?? '', item.url ?? '', item.selector || item.url ? '' : (item.text ?? '')]);

/**
 * The scan's part: each form factor's scores, and the failed audits of both as one list (an audit failed on both is
 * one entry, its items merged by selector or URL, and a message by its text), heaviest first, then by id.
 */
export function scanLighthouse(perFactor: Record<FormFactor, FormFactorLighthouse>): ScanLighthouse {
  const merged = new Map<string, ScanAuditFailure>();
  for (const factor of FORM_FACTORS)
    for (const failure of perFactor[factor].failures) {
      let entry = merged.get(failure.id);
      if (!entry) {
        const { items: _items, ...rest } = failure;
        merged.set(failure.id, (entry = { ...rest, form_factors: [], items: [] }));
      }
      entry.form_factors.push(factor);
      entry.score = Math.min(entry.score, failure.score);
      entry.item_count = Math.max(entry.item_count, failure.item_count);
      for (const item of failure.items) {
        const same = entry.items.find((seen) => itemKey(seen) === itemKey(item));
        if (same) same.form_factors.push(factor);
        else if (entry.items.length < FAILURE_LIMITS.items) entry.items.push({ ...item, form_factors: [factor] });
      }
    }
  const failures = [...merged.values()].sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id));
  return {
    categories: Object.fromEntries(
      FORM_FACTORS.map((f) => [f, perFactor[f].categories]),
    ) as ScanLighthouse['categories'],
    failures,
  };
}
