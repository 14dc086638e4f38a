import zxcvbnCore from '@zxcvbn-ts/core';
import zxcvbnCommon from '@zxcvbn-ts/language-common';
import zxcvbnDe from '@zxcvbn-ts/language-de';
import zxcvbnEn from '@zxcvbn-ts/language-en';
import type { Locale } from '../core/i18n/locale.ts';

/**
 * The rule for every new password (sign-up, reset, change, the operator's user creation): at least
 * MIN_PASSWORD_LENGTH characters and a zxcvbn score of at least MIN_SCORE (4 steps: 3 is "safely unguessable",
 * about 10^10 guesses), judged against common and leaked passwords, English and German words and names, and the
 * user's own address and name. Existing passwords are never judged again: signing in does not use this.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MIN_SCORE = 3;

export type PasswordVerdict = { ok: true } | { ok: false; reason: string };

const OWN_WORDS = {
  en: {
    tooShort: (min: number) => `The password must be at least ${min} characters.`,
    tooGuessable: 'This password is too easy to guess.',
    fallback: 'Use a few unrelated words, or a password manager.',
  },
  de: {
    tooShort: (min: number) => `Das Passwort muss mindestens ${min} Zeichen lang sein.`,
    tooGuessable: 'Dieses Passwort ist zu leicht zu erraten.',
    fallback: 'Nehmen Sie einige Wörter, die nichts miteinander zu tun haben, oder einen Passwort-Manager.',
  },
} satisfies Record<Locale, unknown>;

const dictionary = { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary, ...zxcvbnDe.dictionary };
const estimators = new Map<Locale, InstanceType<typeof zxcvbnCore.ZxcvbnFactory>>();

/** One estimator per language (its feedback's words); the dictionaries are the same for both. */
function estimator(locale: Locale) {
  let found = estimators.get(locale);
  if (!found) {
    found = new zxcvbnCore.ZxcvbnFactory({
      dictionary,
      graphs: zxcvbnCommon.adjacencyGraphs,
      translations: locale === 'de' ? zxcvbnDe.translations : zxcvbnEn.translations,
    });
    estimators.set(locale, found);
  }
  return found;
}

/** The parts of the user's own details a password should not be made of. */
const ownInputs = (user: { email: string; name: string }): string[] => {
  const email = user.email.trim().toLowerCase();
  return [email, ...email.split(/[@.+_-]/), ...user.name.toLowerCase().split(/\s+/)].filter((part) => part.length >= 3);
};

/** Judges a new password; the reason (the estimator's warning and suggestions, or our own words) is in `locale`. */
export function checkNewPassword(
  password: string,
  user: { email: string; name: string },
  locale: Locale = 'en',
): PasswordVerdict {
  const words = OWN_WORDS[locale];
  if ([...password].length < MIN_PASSWORD_LENGTH) return { ok: false, reason: words.tooShort(MIN_PASSWORD_LENGTH) };
  const result = estimator(locale).check(password, ownInputs(user));
  if (result.score >= MIN_SCORE) return { ok: true };
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter(
    (line): line is string => typeof line === 'string' && line.length > 0,
  );
  return { ok: false, reason: [words.tooGuessable, ...(advice.length ? advice : [words.fallback])].join(' ') };
}
