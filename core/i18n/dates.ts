import type { Locale } from './locale.ts';

/**
 * Dates as the web pages show them, always in UTC like every timestamp of the service, with the UTC named
 * where a time of day is shown.
 */
const LANGUAGE_TAG: Record<Locale, string> = { en: 'en-GB', de: 'de-DE' };

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}:${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found)
    formatters.set(key, (found = new Intl.DateTimeFormat(LANGUAGE_TAG[locale], { ...options, timeZone: 'UTC' })));
  return found;
}

/** "3 Nov" / "3. Nov." */
export const formatDayMonth = (date: Date, locale: Locale): string =>
  formatter(locale, { day: 'numeric', month: 'short' }).format(date);

/** "3 Nov 2026" / "3. Nov. 2026" */
export const formatDate = (date: Date, locale: Locale): string =>
  formatter(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(date);

/** "3 Nov 2026, 04:12 UTC" / "3. Nov. 2026, 04:12 UTC" */
export const formatDateTime = (date: Date, locale: Locale): string =>
  `${formatter(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(date)} UTC`;

/** "3 Nov, 04:12" / "3. Nov., 04:12": for axes whose dates all fall within a day or two. */
export const formatDayTime = (date: Date, locale: Locale): string =>
  formatter(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(date);

const relative = new Map<Locale, Intl.RelativeTimeFormat>();

/**
 * How long ago, in the largest whole unit up to days: "20 minutes ago" / "vor 20 Minuten", "3 hours ago",
 * "yesterday". Under a minute counts as one minute.
 */
export function formatTimeAgo(elapsedMs: number, locale: Locale): string {
  let format = relative.get(locale);
  if (!format) relative.set(locale, (format = new Intl.RelativeTimeFormat(LANGUAGE_TAG[locale], { numeric: 'auto' })));
  const minutes = Math.max(1, Math.floor(elapsedMs / 60_000));
  if (minutes < 60) return format.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return format.format(-hours, 'hour');
  return format.format(-Math.floor(hours / 24), 'day');
}
