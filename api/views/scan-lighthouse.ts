import type { Locale } from '../../core/i18n/locale.ts';
import {
  FAILURE_LIMITS,
  LIGHTHOUSE_CATEGORY_KEYS,
  LISTED_CATEGORIES,
  type ScanLighthouse,
} from '../../core/scan/lighthouse-categories.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import type { JsonSchema } from '../validation.ts';

/**
 * The extension `result.lighthouse` of GET /scans/{id}: Lighthouse's own category scores per form factor and the
 * accessibility, best-practices and SEO audits it failed (core/scan/lighthouse-categories.ts), as stored, with each
 * title in the caller's language. Absent from results stored before scans ran all four categories.
 */
export function scanLighthouseView(lighthouse: ScanLighthouse, locale: Locale) {
  return {
    categories: lighthouse.categories,
    failed_audits: lighthouse.failures.map(({ title, ...failure }) => ({ ...failure, title: title[locale] })),
  };
}

const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const formFactors = { type: 'array', minItems: 1, items: { enum: [...FORM_FACTORS] } };
const text = { type: 'string', maxLength: FAILURE_LIMITS.text };

const categoryScores = closed(
  Object.fromEntries(
    LIGHTHOUSE_CATEGORY_KEYS.map((key) => [
      key,
      { oneOf: [{ type: 'integer', minimum: 0, maximum: 100 }, { type: 'null' }] },
    ]),
  ),
);

const failedAudit = closed({
  id: { type: 'string', description: "Lighthouse's audit id, e.g. `image-alt`, `meta-description`." },
  categories: {
    type: 'array',
    minItems: 1,
    items: { enum: [...LISTED_CATEGORIES] },
    description: 'The categories that count it (some audits are in accessibility and SEO).',
  },
  title: { type: 'string', description: "Lighthouse's title of the failed audit, in the caller's language." },
  help_url: {
    oneOf: [{ type: 'string', format: 'uri' }, { type: 'null' }],
    description: "Lighthouse's link to learn more.",
  },
  weight: {
    type: 'number',
    minimum: 0,
    description: "The audit's weight in its category's score; 0: listed by Lighthouse but not counted.",
  },
  score: { type: 'number', minimum: 0, maximum: 1, description: "Lighthouse's audit score (the lower form factor's)." },
  form_factors: { ...formFactors, description: 'The form factors it failed on.' },
  item_count: {
    type: 'integer',
    minimum: 0,
    description: 'How many items Lighthouse listed (more than `items` holds when it listed more).',
  },
  items: {
    type: 'array',
    maxItems: FAILURE_LIMITS.items,
    items: closed({ selector: text, snippet: text, label: text, url: text, text, form_factors: formFactors }, [
      'form_factors',
    ]),
    description: `What Lighthouse named: an element (selector, snippet, label), a resource (url) or a message (text); its first ${FAILURE_LIMITS.items}.`,
  },
});

export const scanLighthouseSchema: JsonSchema = {
  ...closed({
    categories: {
      ...closed({ desktop: categoryScores, mobile: categoryScores }),
      description:
        "Lighthouse's own score of each category (0–100, as its report and PageSpeed Insights show it; null where it computed none), of the run the result comes from. They are Lighthouse's; `scores` are ours.",
    },
    failed_audits: {
      type: 'array',
      maxItems: FAILURE_LIMITS.audits * FORM_FACTORS.length,
      items: failedAudit,
      description:
        "The accessibility, best-practices and SEO audits Lighthouse failed (a score under 0.9, as its report counts failed) on either form factor, the heaviest first. Performance's are in `findings`.",
    },
  }),
  description:
    "Extension: Lighthouse's four categories (performance, accessibility, best practices, SEO) of this scan. Absent from results stored before scans ran all four.",
};
