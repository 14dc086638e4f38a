import type { Locale } from '../../core/i18n/locale.ts';
import {
  LIGHTHOUSE_CATEGORY_KEYS,
  LISTED_CATEGORIES,
  lighthouseCategoryLabel,
  type ScanAuditFailure,
  type ScanLighthouse,
} from '../../core/scan/lighthouse-categories.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import { html, SafeHtml } from '../html.ts';
import { scorePill } from '../layout.ts';

/**
 * Lighthouse's own four category scores and the audits it failed outside performance
 * (core/scan/lighthouse-categories.ts), on the report and share pages: the scores beside ours in the header, with
 * one line telling the two apart, and the failed accessibility, best-practices and SEO audits after the findings,
 * each with the elements Lighthouse names. A result stored before scans ran the four categories shows neither.
 */
const LABELS = {
  en: {
    caption: 'Lighthouse’s scores',
    formFactor: 'Form factor',
    mobile: 'Mobile',
    desktop: 'Desktop',
    whichIsWhich:
      'The round scores are ours, from our checks of what to fix (the findings below); the table gives Lighthouse’s own category scores of the same page load, as Lighthouse and PageSpeed Insights show them.',
    heading: 'Accessibility, best practices and SEO',
    intro:
      'The audits Lighthouse failed in its other three categories, those that weigh most in its score first, with the elements it names. Its performance audits are the findings above.',
    nothingFailed: 'Lighthouse failed no audit in accessibility, best practices or SEO.',
    noneInCategory: 'No audit failed.',
    seenOn: 'Seen on',
    notCounted: 'not counted in the score',
    more: (n: number) => `and ${n} more`,
    learnMore: 'Learn more',
    learnMoreAbout: (title: string) => `Learn more: ${title}`,
  },
  de: {
    caption: 'Scores von Lighthouse',
    formFactor: 'Gerätetyp',
    mobile: 'Mobil',
    desktop: 'Desktop',
    whichIsWhich:
      'Die runden Scores sind unsere, aus unseren Prüfungen dessen, was zu beheben ist (die Befunde unten); die Tabelle zeigt die eigenen Kategorie-Scores von Lighthouse für dasselbe Laden der Seite, wie Lighthouse und PageSpeed Insights sie zeigen.',
    heading: 'Barrierefreiheit, Best Practices und SEO',
    intro:
      'Die Prüfungen, die Lighthouse in seinen anderen drei Kategorien nicht bestanden hat, die im Score am schwersten wiegenden zuerst, mit den Elementen, die es nennt. Seine Performance-Prüfungen sind die Befunde oben.',
    nothingFailed:
      'Lighthouse hat in Barrierefreiheit, Best Practices und SEO keine Prüfung als nicht bestanden gewertet.',
    noneInCategory: 'Keine Prüfung nicht bestanden.',
    seenOn: 'Gesehen auf',
    notCounted: 'zählt nicht zum Score',
    more: (n: number) => `und ${n} weitere`,
    learnMore: 'Mehr erfahren',
    learnMoreAbout: (title: string) => `Mehr erfahren: ${title}`,
  },
} as const satisfies Record<Locale, unknown>;

/** Mobile first, as PageSpeed Insights shows it. */
const MOBILE_FIRST: FormFactor[] = ['mobile', 'desktop'];

/** Lighthouse's Markdown code spans (`[alt]`) as <code>, the rest as text. */
export function lighthouseTitle(title: string): SafeHtml {
  return new SafeHtml(
    title
      .split(/(`[^`]+`)/)
      .map((part) => (/^`[^`]+`$/.test(part) ? String(html`<code>${part.slice(1, -1)}</code>`) : String(html`${part}`)))
      .join(''),
  );
}

/** The header's part: Lighthouse's four scores per form factor, and the line telling them from ours. */
export function lighthouseScoresPart(lighthouse: ScanLighthouse | undefined, locale: Locale): SafeHtml {
  if (!lighthouse) return html``;
  const t = LABELS[locale];
  // Scrolls sideways inside its own box on a narrow phone, so the box takes the keyboard's focus.
  return html`<div class="lighthouse-scores" tabindex="0" role="region" aria-label="${t.caption}"><table id="lighthouse-scores"><caption>${t.caption}</caption>
    <thead><tr><th scope="col">${t.formFactor}</th>${LIGHTHOUSE_CATEGORY_KEYS.map((key) => html`<th scope="col">${lighthouseCategoryLabel(key, locale)}</th>`)}</tr></thead>
    <tbody>${MOBILE_FIRST.map(
      (factor) =>
        html`<tr data-form-factor="${factor}"><th scope="row">${t[factor]}</th>${LIGHTHOUSE_CATEGORY_KEYS.map(
          (key) =>
            html`<td data-category="${key}" data-value="${lighthouse.categories[factor][key] ?? ''}">${scorePill(lighthouse.categories[factor][key])}</td>`,
        )}</tr>`,
    )}</tbody></table></div>
    <p class="note" id="which-scores">${t.whichIsWhich}</p>`;
}

/** An item's element, resource and words, in that order; Lighthouse labels an element without text by its selector. */
function itemLine(item: ScanAuditFailure['items'][number]): SafeHtml[] {
  const words = [item.label, item.text].filter(
    (w, i, all): w is string => !!w && w !== item.selector && all.indexOf(w) === i,
  );
  return [
    item.selector ? html`<code class="item-selector">${item.selector}</code>` : null,
    item.url ? html`<code class="item-url">${item.url}</code>` : null,
    ...words.map((w) => html`${w}`),
  ]
    .filter((part): part is SafeHtml => part !== null)
    .map((part, i) => (i === 0 ? part : html` — ${part}`));
}

function failureEntry(failure: ScanAuditFailure, locale: Locale): SafeHtml {
  const t = LABELS[locale];
  const title = failure.title[locale];
  const hidden = failure.item_count - failure.items.length;
  return html`<div class="finding lighthouse-audit" data-audit="${failure.id}"><strong>${lighthouseTitle(title)}</strong>
    <p class="seen-on">${t.seenOn}: ${failure.form_factors.map((f) => t[f]).join(', ')}${failure.weight === 0 ? ` · ${t.notCounted}` : ''}</p>${
      failure.items.length
        ? html`<ul class="items">${failure.items.map(
            (item) =>
              html`<li>${itemLine(item)}${item.snippet ? html`<br><code class="item-snippet">${item.snippet}</code>` : html``}</li>`,
          )}${hidden > 0 ? html`<li class="more">${t.more(hidden)}</li>` : html``}</ul>`
        : html``
    }${failure.help_url ? html`<p><a href="${failure.help_url}" rel="noopener noreferrer" aria-label="${t.learnMoreAbout(title.replaceAll('`', ''))}">${t.learnMore}</a></p>` : html``}</div>`;
}

/** The failed accessibility, best-practices and SEO audits, per category, after the findings. */
export function lighthouseAuditsSection(lighthouse: ScanLighthouse | undefined, locale: Locale): SafeHtml {
  if (!lighthouse) return html``;
  const t = LABELS[locale];
  const scores = (key: (typeof LISTED_CATEGORIES)[number]) =>
    MOBILE_FIRST.map((f) => `${t[f]} ${lighthouse.categories[f][key] ?? '–'}`).join(' · ');
  return html`<section id="lighthouse-audits"><h2>${t.heading}</h2><p class="note">${t.intro}</p>${
    lighthouse.failures.length === 0
      ? html`<p id="no-lighthouse-failures">${t.nothingFailed}</p>`
      : LISTED_CATEGORIES.map((key) => {
          const failed = lighthouse.failures.filter((f) => f.categories.includes(key));
          return html`<h3 data-category="${key}">${lighthouseCategoryLabel(key, locale)} <small class="muted">${scores(key)}</small></h3>${
            failed.length ? failed.map((f) => failureEntry(f, locale)) : html`<p>${t.noneInCategory}</p>`
          }`;
        })
  }</section>`;
}
