import { SCORE_CATEGORIES, type ScanScores } from '../scoring/categories.ts';
import type { Finding } from '../scoring/types.ts';
import { localiseFinding } from './findings.ts';
import type { Locale } from './locale.ts';

const VERDICT: Record<Locale, [string, string, string]> = {
  en: ['Good', 'Needs improvement', 'Poor'],
  de: ['Gut', 'Verbesserungswürdig', 'Schlecht'],
};
const verdict = (score: number, locale: Locale) => VERDICT[locale][score >= 90 ? 0 : score >= 50 ? 1 : 2];

/** summary_short (one sentence) and summary_long (a paragraph), in the caller's language. */
export function summarise(scores: ScanScores, findings: Finding[], locale: Locale): { short: string; long: string } {
  const top = findings
    .filter((f) => f.severity !== 'info')
    .slice(0, 3)
    .map((f) => localiseFinding(f, locale).title);
  const shown = SCORE_CATEGORIES.filter(
    (c) => !c.wordpressOnly || scores[c.key] !== 100 || findings.some((f) => f.category === c.key),
  );
  const parts = shown.map((c) => `${c.inSentence[locale]} ${scores[c.key]}`).join(', ');
  if (locale === 'de') {
    const short = `${verdict(scores.overall, locale)}: ${scores.overall}/100 insgesamt${top[0] ? `; größtes Problem: ${top[0]}` : '; keine wesentlichen Probleme'}.`;
    const long = `Gesamtbewertung ${scores.overall}/100 (${verdict(scores.overall, locale).toLowerCase()}). Teilwerte: ${parts}. ${top.length ? `Die wichtigsten Punkte: ${top.join('; ')}.` : 'Es gibt keine Befunde, die über Hinweise hinausgehen.'}`;
    return { short, long };
  }
  const short = `${verdict(scores.overall, locale)}: ${scores.overall}/100 overall${top[0] ? `; the biggest issue: ${top[0].toLowerCase()}` : '; no significant issues'}.`;
  const long = `Overall score ${scores.overall}/100 (${verdict(scores.overall, locale).toLowerCase()}). Category scores: ${parts}. ${top.length ? `Most important: ${top.join('; ')}.` : 'No findings beyond hints.'}`;
  return { short, long };
}
