import type { Locale } from '../../core/i18n/locale.ts';

/** The words of the account-mail pages: password reset, check your inbox, verification, e-mail change. */
const en = {
  forgotLink: 'Forgot your password?',
  forgotTitle: 'Reset your password',
  forgotIntro: 'Enter the e-mail address of your account. We will send you a link to choose a new password.',
  sendLink: 'Send the link',
  forgotSentTitle: 'Check your inbox',
  forgotSent:
    'If an account has the address you entered, we have sent it a link to choose a new password. The link works once, for one hour.',
  forgotThrottled: 'Too many reset links asked for.',
  resetTitle: 'Choose a new password',
  newPassword: 'New password (at least 12 characters, hard to guess)',
  setPassword: 'Set the password',
  resetInvalid:
    'This link does not work (any more): a link works once and for one hour. Ask for a new one if you still need it.',
  askAgain: 'Ask for a new link',
  resetDone: 'Your password is set, and you have been signed out everywhere. Sign in with the new password.',
  checkInboxTitle: 'Check your inbox',
  checkInbox:
    'We have sent a message to the address you entered. Follow the link in it to confirm your address and sign in; the link works for 7 days.',
  checkInboxLater: 'You can also sign in with your password now and confirm the address later.',
  verifyInvalid: 'This confirmation link does not work (any more). Sign in and ask for a new one.',
  bannerText: (email: string) =>
    `Please confirm your e-mail address: follow the link we sent to ${email}. Until then we send you no alert e-mails, and webhooks cannot be set up.`,
  sendAgain: 'Send the link again',
  sentAgain: 'A new link is on its way.',
  resendThrottled: 'Too many links asked for.',
  verifyFirst:
    'Confirm your e-mail address first: follow the link we sent you, or send it again from the banner above.',
  emailTitle: 'Change your e-mail address',
  emailIntro: (email: string) =>
    `Your account uses ${email}. We send a link to the new address; the change happens when it is followed. We also tell the current address.`,
  newEmail: 'New e-mail address',
  currentPassword: 'Current password',
  changeEmail: 'Send the confirmation link',
  emailSent:
    'If the new address can be used, a confirmation link is on its way there; it works once, for 24 hours. Your account keeps its current address until the link is followed.',
  emailSentTitle: 'Check the new inbox',
  emailInvalid: 'The e-mail must be a valid email address.',
  emailSame: 'This is already the address of your account.',
  wrongPassword: 'This is not your current password.',
  emailThrottled: 'Too many changes asked for.',
  emailChanged: (email: string) => `Your account now uses ${email}.`,
  emailChangeInvalid: 'This link does not work (any more): a link works once and for 24 hours.',
  signInLink: 'Sign in',
  linkTitle: 'Link not valid',
  doneTitle: 'Password set',
  changedTitle: 'Address changed',
  toDashboard: 'To the dashboard',
  confirmVerifyTitle: 'Confirm your e-mail address',
  confirmVerify:
    'Choose the password of your account to confirm that this address is yours. Every other session of the account is signed out, and the password it had before no longer works.',
  confirmVerifyButton: 'Set the password and sign in',
  confirmChangeTitle: 'Confirm the new address',
  confirmChange: 'Confirm that your account should use this address from now on.',
  confirmChangeButton: 'Use this address',
  passwordThrottled: 'Too many wrong passwords.',
  cancelChangeTitle: 'Cancel the change of address',
  cancelChange: 'Cancel the pending change of your account’s e-mail address. Your account keeps its current address.',
  cancelChangeButton: 'Cancel the change',
  cancelledTitle: 'Change cancelled',
  changeCancelled:
    'The change of address is cancelled; your account keeps its address. If you did not ask for it, someone knows your password: choose a new one now.',
  resetNow: 'Choose a new password',
  cancelInvalid:
    'This link does not work (any more): it works once and for 24 hours, and not after the change was made or cancelled.',
};

const de: typeof en = {
  forgotLink: 'Passwort vergessen?',
  forgotTitle: 'Passwort zurücksetzen',
  forgotIntro:
    'Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort wählen.',
  sendLink: 'Link senden',
  forgotSentTitle: 'Sehen Sie in Ihr Postfach',
  forgotSent:
    'Falls es ein Konto mit der eingegebenen Adresse gibt, haben wir ihm einen Link für ein neues Passwort geschickt. Der Link funktioniert einmal, eine Stunde lang.',
  forgotThrottled: 'Zu viele Links angefordert.',
  resetTitle: 'Neues Passwort wählen',
  newPassword: 'Neues Passwort (mindestens 12 Zeichen, schwer zu erraten)',
  setPassword: 'Passwort setzen',
  resetInvalid:
    'Dieser Link funktioniert nicht (mehr): Ein Link funktioniert einmal und eine Stunde lang. Fordern Sie bei Bedarf einen neuen an.',
  askAgain: 'Neuen Link anfordern',
  resetDone: 'Ihr Passwort ist gesetzt, und Sie wurden überall abgemeldet. Melden Sie sich mit dem neuen Passwort an.',
  checkInboxTitle: 'Sehen Sie in Ihr Postfach',
  checkInbox:
    'Wir haben eine Nachricht an die eingegebene Adresse geschickt. Öffnen Sie den Link darin, um Ihre Adresse zu bestätigen und sich anzumelden; er funktioniert 7 Tage lang.',
  checkInboxLater: 'Sie können sich auch jetzt mit Ihrem Passwort anmelden und die Adresse später bestätigen.',
  verifyInvalid:
    'Dieser Bestätigungslink funktioniert nicht (mehr). Melden Sie sich an und fordern Sie einen neuen an.',
  bannerText: (email: string) =>
    `Bitte bestätigen Sie Ihre E-Mail-Adresse: Öffnen Sie den Link, den wir an ${email} geschickt haben. Bis dahin senden wir Ihnen keine Alarm-E-Mails, und Webhooks lassen sich nicht einrichten.`,
  sendAgain: 'Link erneut senden',
  sentAgain: 'Ein neuer Link ist unterwegs.',
  resendThrottled: 'Zu viele Links angefordert.',
  verifyFirst:
    'Bestätigen Sie zuerst Ihre E-Mail-Adresse: Öffnen Sie den Link, den wir Ihnen geschickt haben, oder senden Sie ihn oben erneut.',
  emailTitle: 'E-Mail-Adresse ändern',
  emailIntro: (email: string) =>
    `Ihr Konto verwendet ${email}. Wir senden einen Link an die neue Adresse; die Änderung geschieht, wenn er geöffnet wird. Die bisherige Adresse benachrichtigen wir auch.`,
  newEmail: 'Neue E-Mail-Adresse',
  currentPassword: 'Aktuelles Passwort',
  changeEmail: 'Bestätigungslink senden',
  emailSent:
    'Falls die neue Adresse verwendet werden kann, ist ein Bestätigungslink dorthin unterwegs; er funktioniert einmal, 24 Stunden lang. Bis er geöffnet wird, behält Ihr Konto die bisherige Adresse.',
  emailSentTitle: 'Sehen Sie in das neue Postfach',
  emailInvalid: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  emailSame: 'Das ist schon die Adresse Ihres Kontos.',
  wrongPassword: 'Das ist nicht Ihr aktuelles Passwort.',
  emailThrottled: 'Zu viele Änderungen angefordert.',
  emailChanged: (email: string) => `Ihr Konto verwendet jetzt ${email}.`,
  emailChangeInvalid: 'Dieser Link funktioniert nicht (mehr): Ein Link funktioniert einmal und 24 Stunden lang.',
  signInLink: 'Anmelden',
  linkTitle: 'Link ungültig',
  doneTitle: 'Passwort gesetzt',
  changedTitle: 'Adresse geändert',
  toDashboard: 'Zur Übersicht',
  confirmVerifyTitle: 'E-Mail-Adresse bestätigen',
  confirmVerify:
    'Wählen Sie das Passwort Ihres Kontos, um zu bestätigen, dass diese Adresse Ihnen gehört. Alle anderen Sitzungen des Kontos werden abgemeldet, und sein bisheriges Passwort funktioniert nicht mehr.',
  confirmVerifyButton: 'Passwort setzen und anmelden',
  confirmChangeTitle: 'Neue Adresse bestätigen',
  confirmChange: 'Bestätigen Sie, dass Ihr Konto ab jetzt diese Adresse verwendet.',
  confirmChangeButton: 'Diese Adresse verwenden',
  passwordThrottled: 'Zu viele falsche Passwörter.',
  cancelChangeTitle: 'Adressänderung abbrechen',
  cancelChange:
    'Brechen Sie die ausstehende Änderung der E-Mail-Adresse Ihres Kontos ab. Ihr Konto behält seine bisherige Adresse.',
  cancelChangeButton: 'Änderung abbrechen',
  cancelledTitle: 'Änderung abgebrochen',
  changeCancelled:
    'Die Adressänderung ist abgebrochen; Ihr Konto behält seine Adresse. Haben Sie sie nicht angefordert, kennt jemand Ihr Passwort: Wählen Sie jetzt ein neues.',
  resetNow: 'Neues Passwort wählen',
  cancelInvalid:
    'Dieser Link funktioniert nicht (mehr): Er funktioniert einmal und 24 Stunden lang, und nicht mehr, nachdem die Änderung ausgeführt oder abgebrochen wurde.',
};

export type AccountMailText = typeof en;

export const accountMailText = (locale: Locale): AccountMailText => (locale === 'de' ? de : en);
