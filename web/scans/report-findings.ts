import { localiseFinding } from '../../core/i18n/findings.ts';
import { formatBytes, formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import { scoreLabel } from '../../core/scoring/categories.ts';
import type { Finding, Impact } from '../../core/scoring/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { findingAnchor } from './report-anchors.ts';
import { findingEvidence } from './report-details.ts';

/**
 * The report's findings: "Fix first", the three findings whose fixes save most (their `priority`), and every
 * finding in the order scoring gave them (by what they save: milliseconds on a metric, then bytes; then the
 * rest by severity), each with its category, what it points at and Lighthouse's savings.
 */
const LABELS = {
  en: {
    fixFirst: 'Fix first',
    fixFirstNote:
      "The three findings whose fixes save most by Lighthouse's estimates: milliseconds on a metric first, then bytes. The estimates overlap; fixing one can shrink another.",
    findings: 'Findings',
    noFindings: 'Nothing to fix: no findings.',
    recommendation: 'What to do',
    saves: 'saves about',
    order: 'In the order of what fixing them saves; findings without an estimate follow by severity.',
  },
  de: {
    fixFirst: 'Zuerst beheben',
    fixFirstNote:
      'Die drei Befunde, deren Behebung nach den Schätzungen von Lighthouse am meisten spart: zuerst Millisekunden eines Messwerts, dann Bytes. Die Schätzungen überschneiden sich; wer einen behebt, verkleinert oft einen anderen.',
    findings: 'Befunde',
    noFindings: 'Nichts zu tun: keine Befunde.',
    recommendation: 'Was zu tun ist',
    saves: 'spart etwa',
    order: 'In der Reihenfolge dessen, was ihre Behebung spart; Befunde ohne Schätzung folgen nach Schweregrad.',
  },
} as const;

/** What fixing a finding saves, in words: "1.2 s, 340 KB". */
export function impactText(impact: Impact, locale: Locale): string {
  return [
    impact.ms > 0 ? formatMs(impact.ms, locale) : null,
    impact.bytes > 0 ? formatBytes(impact.bytes, locale) : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The element or resource a finding points at first: its first item's selector, else its URL. */
function pointsAt(finding: Finding): string | null {
  const item = finding.items?.[0];
  return item?.selector ?? item?.url ?? null;
}

const formatValue = (finding: Finding, locale: Locale) => (v: number) =>
  finding.code === 'speed.cls-high' ? formatNumber(v, locale, 3) : formatMs(v, locale);

/** The three to fix first, in order, each linking to its finding; nothing for results without priorities. */
export function fixFirstSection(r: ScanResultRecord, locale: Locale): SafeHtml {
  const t = LABELS[locale];
  const first = r.findings.filter((f) => f.priority !== undefined).sort((a, b) => a.priority! - b.priority!);
  if (first.length === 0) return html``;
  return html`<section id="fix-first"><h2>${t.fixFirst}</h2><ol>${first.map((f) => {
    const target = pointsAt(f);
    return html`<li data-code="${f.code}" data-priority="${f.priority!}"><a href="#priority-${f.priority!}">${localiseFinding(f, locale).title}</a>${
      target ? html` <code class="fix-target">${target}</code>` : html``
    }${f.impact ? html` — ${t.saves} <span class="impact">${impactText(f.impact, locale)}</span>` : html``}</li>`;
  })}</ol><p class="note">${t.fixFirstNote}</p></section>`;
}

/** Every finding, in the stored order (by what it saves), with its category, evidence and recommendation. */
export function findingsSection(r: ScanResultRecord, locale: Locale): SafeHtml {
  const t = LABELS[locale];
  const anchored = new Set<string>();
  const list = r.findings.map((f) => {
    const text = localiseFinding(f, locale);
    // The first finding of a code is the target of the live-data dashboard's lab links.
    const anchor = anchored.has(f.code) ? null : (anchored.add(f.code), findingAnchor(f.code));
    return html`<div class="finding${f.priority ? ' fix-first' : ''}"${anchor ? html` id="${anchor}"` : html``} data-code="${f.code}">${
      f.priority ? html`<span id="priority-${f.priority}" class="priority">${t.fixFirst} ${f.priority}</span> ` : html``
    }<strong class="severity-${f.severity}">${text.title}</strong> <span class="category">${scoreLabel(f.category, locale)}</span><p>${text.message}</p>${findingEvidence(f, locale, formatValue(f, locale))}<p><em>${t.recommendation}:</em> ${text.recommendation}</p></div>`;
  });
  return html`<section id="findings"><h2>${t.findings}</h2>${
    list.length === 0
      ? html`<p>${t.noFindings}</p>`
      : html`${r.findings.some((f) => f.impact) ? html`<p class="note">${t.order}</p>` : html``}${list}`
  }</section>`;
}
