import { FAILURE_TEXTS, failureMessage } from '../../core/i18n/failures.ts';
import { LOCALES, negotiateLocale } from '../../core/i18n/locale.ts';
import { FAILURE_CODES } from '../../core/scan/failures.ts';
import { summarise } from '../../core/i18n/summaries.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { cleanObservation, SCANNED_AT } from './observation-builder.ts';

describe('language negotiation', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['de', 'de'],
    ['de-AT,de;q=0.9', 'de'],
    ['fr-CH, fr;q=0.9, de;q=0.8, en;q=0.7', 'de'],
    ['en-US,en;q=0.9,de;q=0.8', 'en'],
    ['de;q=0.1, en;q=0.5', 'en'],
    ['de;q=0', 'en'],
    ['*', 'en'],
    ['garbage;;;', 'en'],
  ])('%j → %s', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });
});

describe('summaries', () => {
  it('name the overall score and the biggest issue, in both languages', () => {
    const scored = scoreScan(cleanObservation({ ttfbMs: 2500 }), SCANNED_AT);
    const en = summarise(scored.scores, scored.findings, 'en');
    const de = summarise(scored.scores, scored.findings, 'de');
    expect(en.short).toContain(`${scored.scores.overall}/100`);
    expect(en.short).toContain('slow server response');
    expect(de.short).toContain(`${scored.scores.overall}/100`);
    expect(de.short).toContain('Langsame Serverantwort');
    expect(en.long).toContain(`speed ${scored.scores.speed}`);
    expect(de.long).toContain(`Geschwindigkeit ${scored.scores.speed}`);
    expect(en.long).not.toContain('WordPress');
  });

  it('say there is nothing significant on a clean page', () => {
    const scored = scoreScan(cleanObservation(), SCANNED_AT);
    expect(summarise(scored.scores, scored.findings, 'en').short).toMatch(/no significant issues/);
    expect(summarise(scored.scores, scored.findings, 'de').short).toMatch(/keine wesentlichen Probleme/);
  });
});

describe('failure messages', () => {
  it("are the code's own text in each language; an http_error names the status, and nothing else is ever filled in", () => {
    expect(failureMessage('http_error', 'en', 404)).toBe('The page answered with HTTP 404.');
    expect(failureMessage('http_error', 'de', 503)).toBe('Die Seite antwortete mit HTTP 503.');
    expect(failureMessage('http_error', 'en')).toBe(FAILURE_TEXTS.en.http_error);
    expect(failureMessage('blocked_address', 'de', 404)).toBe(FAILURE_TEXTS.de.blocked_address);
    for (const code of FAILURE_CODES)
      expect(new Set(LOCALES.map((locale) => failureMessage(code, locale))).size).toBe(LOCALES.length);
  });
});
