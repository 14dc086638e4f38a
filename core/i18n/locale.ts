export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** The best supported language in an Accept-Language header (q-values honoured, `de-AT` is German); English otherwise. */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.trim().toLowerCase().split('-')[0]!, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { lang } of ranked) {
    if ((LOCALES as readonly string[]).includes(lang)) return lang as Locale;
    if (lang === '*') return 'en';
  }
  return 'en';
}

export function formatNumber(value: number, locale: Locale, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits }).format(value);
}

export function formatBytes(bytes: number, locale: Locale): string {
  if (bytes >= 1024 * 1024) return `${formatNumber(bytes / (1024 * 1024), locale, 1)} MB`;
  if (bytes >= 1024) return `${formatNumber(bytes / 1024, locale, 0)} KB`;
  return `${formatNumber(bytes, locale)} B`;
}

export function formatMs(ms: number, locale: Locale): string {
  return ms >= 1000 ? `${formatNumber(ms / 1000, locale, 1)} s` : `${formatNumber(ms, locale)} ms`;
}
