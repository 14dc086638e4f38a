import type { Finding, ScoreCategory, Severity } from '../scoring/types.ts';
import { CATALOGUE, FORM_FACTOR_NAMES } from './catalogue.ts';
import { CLUES } from './clues.ts';
import { formatBytes, formatMs, formatNumber, type Locale } from './locale.ts';

export interface LocalisedFinding {
  category: ScoreCategory;
  code: string;
  severity: Severity;
  title: string;
  message: string;
  recommendation: string;
}

function formatParam(key: string, value: string | number, locale: Locale): string {
  if (typeof value === 'string') return key === 'form_factor' ? (FORM_FACTOR_NAMES[locale][value] ?? value) : value;
  if (key.endsWith('_bytes')) return formatBytes(value, locale);
  if (key.endsWith('_ms')) return formatMs(value, locale);
  return formatNumber(value, locale, 3);
}

export function fillTemplate(template: string, params: Record<string, string | number>, locale: Locale): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) =>
    key in params ? formatParam(key, params[key]!, locale) : whole,
  );
}

/**
 * A finding in the caller's language: its title, its message followed by its clues' sentences, and its clues'
 * recommendations where they have any (they are more specific), else its own.
 */
export function localiseFinding(finding: Finding, locale: Locale): LocalisedFinding {
  const text = CATALOGUE[locale][finding.code] ?? CATALOGUE.en[finding.code];
  if (!text) throw new Error(`no text for finding ${finding.code}`);
  const clues = (finding.clues ?? []).map((clue) => {
    const clueText = CLUES[locale][clue.code] ?? CLUES.en[clue.code];
    if (!clueText) throw new Error(`no text for clue ${clue.code}`);
    const params = { ...finding.params, ...clue.params };
    return {
      message: fillTemplate(clueText.message, params, locale),
      recommendation: clueText.recommendation ? fillTemplate(clueText.recommendation, params, locale) : null,
    };
  });
  const recommendations = clues.map((c) => c.recommendation).filter((r): r is string => r !== null);
  return {
    category: finding.category,
    code: finding.code,
    severity: finding.severity,
    title: fillTemplate(text.title, finding.params, locale),
    message: [fillTemplate(text.message, finding.params, locale), ...clues.map((c) => c.message)].join(' '),
    recommendation: recommendations.length
      ? recommendations.join(' ')
      : fillTemplate(text.recommendation, finding.params, locale),
  };
}
