import { getFormatted } from 'lighthouse/shared/localization/format.js';
import {
  FAILURE_LIMITS,
  LIGHTHOUSE_CATEGORIES,
  LISTED_CATEGORIES,
  type AuditFailure,
  type FailureItem,
  type FormFactorLighthouse,
  type LighthouseCategoryScores,
  type ListedCategory,
} from '../../core/scan/lighthouse-categories.ts';
import { elementRef, isObject, type Json, text as cut } from './lhr-json.ts';

/**
 * Lighthouse's four category scores and its failed accessibility, best-practices and SEO audits, read from one
 * form factor's result into core/scan/lighthouse-categories.ts's bounded shapes. Pure: the runner calls it on each
 * form factor's result, the unit tests on recorded ones. The German titles are Lighthouse's own translations.
 */
export interface CategoryResult {
  categories: Record<string, { score: number | null; auditRefs?: Array<{ id: string; weight: number }> } | undefined>;
  audits: Record<
    string,
    | { title?: string; description?: string; score: number | null; scoreDisplayMode?: string; details?: Json }
    | undefined
  >;
  i18n?: {
    icuMessagePaths?: Record<string, Array<string | { path: string; values?: Record<string, string | number> }>>;
  };
}

/** Lighthouse's report counts an audit as passed from this score on. */
const PASSED = 0.9;
/** The modes whose score says passed or failed (manual, informative and not-applicable audits have none). */
const SCORED_MODES = new Set(['binary', 'numeric', 'metricSavings']);

/** A string that says something, cut to the kept length. */
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? cut(value, FAILURE_LIMITS.text) : undefined;

const percent = (score: number | null | undefined) =>
  typeof score === 'number' && Number.isFinite(score) ? Math.round(score * 100) : null;

export function categoryScores(lhr: CategoryResult): LighthouseCategoryScores {
  return Object.fromEntries(
    LIGHTHOUSE_CATEGORIES.map((c) => [c.key, percent(lhr.categories[c.id]?.score)]),
  ) as LighthouseCategoryScores;
}

/** The rows of a details object: a table's or list's items, and the items of a table nested in a list. */
function rows(details: Json | undefined): Json[] {
  if (!details || !Array.isArray(details.items)) return [];
  return details.items.filter(isObject).flatMap((item) => (item.type === 'table' ? rows(item) : [item]));
}

/** What a row names: its element, its resource, its message (console errors, deprecations, link texts). */
function failureItem(row: Json): FailureItem | null {
  const item: FailureItem = {};
  const element = elementRef(row.node) ?? elementRef(row.source) ?? elementRef(row.relatedNode);
  if (element) {
    item.selector = element.selector;
    if (element.snippet) item.snippet = element.snippet;
    if (element.label) item.label = element.label;
  }
  const location = isObject(row.sourceLocation) ? row.sourceLocation : isObject(row.source) ? row.source : {};
  const url = text(row.url) ?? text(location.url) ?? text(row.href) ?? text(row.scriptUrl);
  if (url && /^(https?|data):/.test(url)) item.url = url;
  const message = text(row.description) ?? text(row.value) ?? text(row.text) ?? text(row.message);
  if (message && message !== item.url) item.text = message;
  return item.selector || item.url || item.text ? item : null;
}

/** A path → message index of the result's translatable strings, to translate titles with Lighthouse's own strings. */
function messagesByPath(
  lhr: CategoryResult,
): Map<string, { i18nId: string; values?: Record<string, string | number> }> {
  const byPath = new Map<string, { i18nId: string; values?: Record<string, string | number> }>();
  for (const [i18nId, uses] of Object.entries(lhr.i18n?.icuMessagePaths ?? {}))
    for (const use of uses)
      if (typeof use === 'string') byPath.set(use, { i18nId });
      else byPath.set(use.path, { i18nId, values: use.values });
  return byPath;
}

function translated(
  english: string,
  message: { i18nId: string; values?: Record<string, string | number> } | undefined,
): string {
  if (!message) return english;
  try {
    return getFormatted({ i18nId: message.i18nId, values: message.values, formattedDefault: english }, 'de');
  } catch {
    return english;
  }
}

/** The last link of a Markdown description ("[Learn more](https://…)"), when it is an https URL. */
function helpUrl(description: string | undefined): string | null {
  const links = [...(description ?? '').matchAll(/\]\((https:\/\/[^)\s]+)\)/g)];
  return links.at(-1)?.[1]?.slice(0, FAILURE_LIMITS.text) ?? null;
}

/**
 * The audits of accessibility, best practices and SEO that Lighthouse failed (a score under 0.9, as its report
 * counts failed), the heaviest first, with the elements, resources or messages it names.
 */
export function auditFailures(lhr: CategoryResult): AuditFailure[] {
  const counted = new Map<string, { categories: ListedCategory[]; weight: number }>();
  for (const key of LISTED_CATEGORIES) {
    const id = LIGHTHOUSE_CATEGORIES.find((c) => c.key === key)!.id;
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const entry = counted.get(ref.id) ?? { categories: [], weight: 0 };
      entry.categories.push(key);
      entry.weight = Math.max(entry.weight, ref.weight);
      counted.set(ref.id, entry);
    }
  }
  const messages = messagesByPath(lhr);
  const failures: AuditFailure[] = [];
  for (const [id, { categories, weight }] of counted) {
    const audit = lhr.audits[id];
    if (!audit || typeof audit.score !== 'number' || audit.score >= PASSED) continue;
    if (!SCORED_MODES.has(audit.scoreDisplayMode ?? '')) continue;
    const english = text(audit.title) ?? id;
    const items = rows(audit.details)
      .map(failureItem)
      .filter((i): i is FailureItem => i !== null);
    failures.push({
      id,
      categories,
      title: {
        en: english,
        de: translated(english, messages.get(`audits[${id}].title`)).slice(0, FAILURE_LIMITS.text),
      },
      help_url: helpUrl(audit.description),
      weight,
      score: audit.score,
      item_count: items.length,
      items: items.slice(0, FAILURE_LIMITS.items),
    });
  }
  return failures.sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id)).slice(0, FAILURE_LIMITS.audits);
}

export const formFactorLighthouse = (lhr: CategoryResult): FormFactorLighthouse => ({
  categories: categoryScores(lhr),
  failures: auditFailures(lhr),
});
