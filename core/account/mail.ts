import type { Locale } from '../i18n/locale.ts';

/** The account's own e-mails (services/account-mail.ts), in the user's language. */
export type AccountMailKind =
  'password_reset' | 'verify' | 'signup_taken' | 'email_change_confirm' | 'email_change_notice';

export interface AccountMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where the e-mail's button leads, and for how long (in hours) when it is a one-use link. */
export interface AccountMailFacts {
  /** The account's name for the greeting; null leaves it out (an address not yet verified). */
  name: string | null;
  link: string;
  validHours?: number;
  /** The new address of an e-mail change. */
  newEmail?: string;
  /** The notice of an e-mail change: the link that cancels it. */
  cancelLink?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Words {
  hello: (name: string | null) => string;
  subject: string;
  body: (facts: AccountMailFacts) => string;
  button: string;
  /** A second link (the notice's "cancel this change"), above the button's. */
  cancel?: string;
  why: string;
}

const hello = {
  en: (name: string | null) => (name === null ? 'Hello,' : `Hello ${name},`),
  de: (name: string | null) => (name === null ? 'Hallo,' : `Hallo ${name},`),
};

const valid = {
  en: (hours = 0) => (hours >= 48 ? `${hours / 24} days` : hours === 1 ? 'one hour' : `${hours} hours`),
  de: (hours = 0) => (hours >= 48 ? `${hours / 24} Tage` : hours === 1 ? 'eine Stunde' : `${hours} Stunden`),
};

const WORDS: Record<Locale, Record<AccountMailKind, Words>> = {
  en: {
    password_reset: {
      hello: hello.en,
      subject: 'Reset your WebPerf password',
      body: (f) =>
        `Someone asked to reset the password of your WebPerf account. The link works once, for ${valid.en(f.validHours)}. If it was not you, ignore this e-mail: your password stays as it is. Setting a new password also cancels every pending change of your account's e-mail address and every older reset link.`,
      button: 'Choose a new password',
      why: 'You get this e-mail because a password reset was asked for with your address.',
    },
    verify: {
      hello: hello.en,
      subject: 'Confirm your e-mail address for WebPerf',
      body: (f) =>
        `Please confirm that this is your address. The link works once, for ${valid.en(f.validHours)}, and signs you in. Until then we send no alert e-mails and webhooks cannot be set up.`,
      button: 'Confirm my address',
      why: 'You get this e-mail because an account was created with your address.',
    },
    signup_taken: {
      hello: hello.en,
      subject: 'Someone tried to sign up with your address',
      body: () =>
        'Someone tried to create a WebPerf account with your address, which already has one. If it was you, sign in, or reset your password if you have forgotten it. If not, you need not do anything.',
      button: 'Reset my password',
      why: 'You get this e-mail because your address was entered on the sign-up form.',
    },
    email_change_confirm: {
      hello: hello.en,
      subject: 'Confirm your new e-mail address for WebPerf',
      body: (f) =>
        `Please confirm that your WebPerf account should use this address from now on. The link works once, for ${valid.en(f.validHours)}; until it is followed, your account keeps its old address.`,
      button: 'Use this address',
      why: 'You get this e-mail because a change to this address was asked for.',
    },
    email_change_notice: {
      hello: hello.en,
      subject: 'Your WebPerf e-mail address is being changed',
      body: (f) =>
        `Someone signed in to your WebPerf account asked to change its e-mail address to ${f.newEmail ?? ''}. The change happens once the link sent to that address is followed. If this wasn't you, cancel the change with the first link below (no sign-in needed), then reset your password: whoever asked knows it.`,
      cancel: 'Cancel this change',
      button: 'Reset my password',
      why: 'You get this e-mail because it is the address of your account.',
    },
  },
  de: {
    password_reset: {
      hello: hello.de,
      subject: 'Ihr WebPerf-Passwort zurücksetzen',
      body: (f) =>
        `Jemand möchte das Passwort Ihres WebPerf-Kontos zurücksetzen. Der Link funktioniert einmal, ${valid.de(f.validHours)} lang. Waren Sie es nicht, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist. Ein neues Passwort bricht auch jede ausstehende Änderung der E-Mail-Adresse Ihres Kontos ab, und ältere Links zum Zurücksetzen funktionieren nicht mehr.`,
      button: 'Neues Passwort wählen',
      why: 'Sie erhalten diese E-Mail, weil mit Ihrer Adresse ein neues Passwort angefordert wurde.',
    },
    verify: {
      hello: hello.de,
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse für WebPerf',
      body: (f) =>
        `Bitte bestätigen Sie, dass dies Ihre Adresse ist. Der Link funktioniert einmal, ${valid.de(f.validHours)} lang, und meldet Sie an. Bis dahin senden wir keine Alarm-E-Mails, und Webhooks lassen sich nicht einrichten.`,
      button: 'Adresse bestätigen',
      why: 'Sie erhalten diese E-Mail, weil mit Ihrer Adresse ein Konto angelegt wurde.',
    },
    signup_taken: {
      hello: hello.de,
      subject: 'Jemand wollte sich mit Ihrer Adresse registrieren',
      body: () =>
        'Jemand wollte mit Ihrer Adresse ein WebPerf-Konto anlegen; für diese Adresse gibt es schon eines. Waren Sie es, melden Sie sich an oder setzen Sie Ihr Passwort zurück, falls Sie es vergessen haben. Sonst müssen Sie nichts tun.',
      button: 'Passwort zurücksetzen',
      why: 'Sie erhalten diese E-Mail, weil Ihre Adresse im Registrierungsformular eingegeben wurde.',
    },
    email_change_confirm: {
      hello: hello.de,
      subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse für WebPerf',
      body: (f) =>
        `Bitte bestätigen Sie, dass Ihr WebPerf-Konto ab jetzt diese Adresse verwenden soll. Der Link funktioniert einmal, ${valid.de(f.validHours)} lang; bis dahin behält Ihr Konto die alte Adresse.`,
      button: 'Diese Adresse verwenden',
      why: 'Sie erhalten diese E-Mail, weil eine Änderung auf diese Adresse angefordert wurde.',
    },
    email_change_notice: {
      hello: hello.de,
      subject: 'Die E-Mail-Adresse Ihres WebPerf-Kontos wird geändert',
      body: (f) =>
        `Jemand, der in Ihrem WebPerf-Konto angemeldet ist, möchte dessen E-Mail-Adresse auf ${f.newEmail ?? ''} ändern. Die Änderung geschieht, sobald der Link an diese Adresse geöffnet wird. Waren Sie das nicht, brechen Sie die Änderung mit dem ersten Link unten ab (ohne Anmeldung) und setzen Sie dann Ihr Passwort zurück: Wer die Änderung angefordert hat, kennt es.`,
      cancel: 'Diese Änderung abbrechen',
      button: 'Passwort zurücksetzen',
      why: 'Sie erhalten diese E-Mail, weil dies die Adresse Ihres Kontos ist.',
    },
  },
};

/** One account e-mail: greeting, what happened, the link (written out too), why the recipient gets it. */
export function composeAccountMail(
  kind: AccountMailKind,
  to: string,
  locale: Locale,
  facts: AccountMailFacts,
): AccountMail {
  const words = WORDS[locale][kind];
  const body = words.body(facts);
  const cancel = words.cancel && facts.cancelLink ? { label: words.cancel, link: facts.cancelLink } : undefined;
  const text = [
    words.hello(facts.name),
    '',
    body,
    '',
    ...(cancel ? [`${cancel.label}: ${cancel.link}`, ''] : []),
    `${words.button}: ${facts.link}`,
    '',
    words.why,
    '',
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${locale}"><body style="font-family: sans-serif; line-height: 1.5">`,
    `<p>${escapeHtml(words.hello(facts.name))}</p>`,
    `<p>${escapeHtml(body)}</p>`,
    ...(cancel ? [`<p><a href="${escapeHtml(cancel.link)}">${escapeHtml(cancel.label)}</a></p>`] : []),
    `<p><a href="${escapeHtml(facts.link)}">${escapeHtml(words.button)}</a></p>`,
    `<p style="color: #666; font-size: 0.9em">${escapeHtml(facts.link)}<br>${escapeHtml(words.why)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: words.subject, text, html };
}
