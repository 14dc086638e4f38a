import type { Locale } from '../core/i18n/locale.ts';

/**
 * A budget's form field, as the targets' and the flows' budget forms read and fill it: a number typed with a
 * decimal point or, as German writes it, a decimal comma; empty for no budget.
 */

/** A budget as its field shows it: empty for none, a decimal comma in German. */
export const budgetFieldText = (value: number | undefined, locale: Locale): string =>
  value === undefined ? '' : locale === 'de' ? String(value).replace('.', ',') : String(value);

/** A field's text as a number: undefined when empty, NaN when it is not a plain decimal number. */
export function budgetFieldNumber(raw: string): number | undefined {
  const text = raw.trim().replace(',', '.');
  if (text === '') return undefined;
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}
