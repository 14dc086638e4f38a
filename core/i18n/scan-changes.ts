import { FORM_FACTORS, type FormFactor } from '../scan/form-factor.ts';
import type { MetricChange } from '../scan/previous.ts';
import { formatMs, formatNumber, type Locale } from './locale.ts';

/**
 * A scan's comparison with the previous one in one sentence: "LCP 1.2 s faster on mobile, a real change; TBT and
 * CLS unchanged." It speaks of the three metrics Lighthouse's performance score weighs most (LCP, TBT, CLS), each
 * form factor with a real change (better or worse by the verdict rules) named with the size of the change the
 * verdict judged, and the metrics without one on either form factor as unchanged. The report and the API's
 * `previous.summary` say it; the table beside it has every row.
 */

type SentenceField = 'lcp_ms' | 'tbt_ms' | 'cls';
const FIELDS: readonly SentenceField[] = ['lcp_ms', 'tbt_ms', 'cls'];
const NAMES: Record<SentenceField, string> = { lcp_ms: 'LCP', tbt_ms: 'TBT', cls: 'CLS' };

const WORDS = {
  en: {
    direction: {
      lcp_ms: { better: 'faster', worse: 'slower' },
      tbt_ms: { better: 'lower', worse: 'higher' },
      cls: { better: 'lower', worse: 'higher' },
    },
    part: (amount: string, direction: string, factor: FormFactor) =>
      `${amount} ${direction} ${factor === 'desktop' ? 'on desktop' : 'on mobile'}`,
    and: 'and',
    real: 'a real change',
    unchanged: 'unchanged',
  },
  de: {
    direction: {
      lcp_ms: { better: 'schneller', worse: 'langsamer' },
      tbt_ms: { better: 'niedriger', worse: 'höher' },
      cls: { better: 'niedriger', worse: 'höher' },
    },
    part: (amount: string, direction: string, factor: FormFactor) =>
      `${factor === 'desktop' ? 'auf dem Desktop' : 'auf Mobilgeräten'} ${amount} ${direction}`,
    and: 'und',
    real: 'eine echte Änderung',
    unchanged: 'unverändert',
  },
} as const;

const amount = (field: SentenceField, value: number, locale: Locale): string =>
  field === 'cls' ? formatNumber(Math.abs(value), locale, 3) : formatMs(Math.abs(value), locale);

/** "a, b and c" in the locale's words. */
const list = (items: readonly string[], and: string): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;

export function changeSentence(changes: readonly MetricChange[], locale: Locale): string {
  const words = WORDS[locale];
  const clauses: string[] = [];
  const unchanged: string[] = [];
  for (const field of FIELDS) {
    const real = FORM_FACTORS.flatMap((factor) => {
      const row = changes.find((c) => c.key === `${factor}:${field}`);
      return row && row.decision.verdict !== 'no_significant_change'
        ? [{ factor, change: row.change, verdict: row.decision.verdict }]
        : [];
    });
    if (real.length === 0) {
      if (changes.some((c) => c.key.endsWith(`:${field}`))) unchanged.push(NAMES[field]);
      continue;
    }
    // Both form factors the same way: one clause; opposite ways: one clause each.
    for (const verdict of ['better', 'worse'] as const) {
      const same = real.filter((r) => r.verdict === verdict);
      if (same.length === 0) continue;
      const parts = same.map((r) =>
        words.part(amount(field, r.change, locale), words.direction[field][verdict], r.factor),
      );
      clauses.push(`${NAMES[field]} ${list(parts, words.and)}, ${words.real}`);
    }
  }
  if (unchanged.length) clauses.push(`${list(unchanged, words.and)} ${words.unchanged}`);
  return `${clauses.join('; ')}.`;
}
