import type { Locale } from '../../core/i18n/locale.ts';
import type { Scope } from '../../core/oauth/scopes.ts';
import { SCOPE_TEXT } from '../../core/oauth/scopes.ts';

/** The OAuth pages' words (consent, refusal, the apps table) in English and German. */
const en = {
  consentTitle: (app: string) => `Authorise ${app}?`,
  from: 'Identified by',
  unverifiedTitle: 'Unverified app',
  unverified:
    'This app registered itself: its name is chosen by the app and nobody has checked it. Only continue if you started this from an app you trust.',
  verified: 'This app is identified by a document published at this address.',
  returnsTo: 'After your answer you go back to',
  actsFor: (name: string, email: string) => `It will act as you (${name}, ${email}) and be able to:`,
  approve: 'Approve',
  deny: 'Deny',
  revokeNote: 'You can revoke its access at any time on the',
  apiPage: 'settings page (authorised apps)',
  refusedTitle: 'Apps need the Starter plan',
  refused: (plan: string) =>
    `Your plan (${plan}) does not allow authorising apps. From Starter on, apps and AI assistants can use your account through OAuth.`,
  backToApp: 'Go back to the app (it will be told that access was refused)',
  seePlan: 'See your plan and ask for an upgrade',
  appsTitle: 'Authorised apps',
  appsNone: (mcp: string) =>
    `No apps authorised. Apps that connect through OAuth (AI assistants, for example, through the MCP server at ${mcp}) appear here.`,
  colApp: 'App',
  colHost: 'Identified by',
  colScopes: 'Can',
  colAuthorised: 'Authorised',
  colLastUsed: 'Last used',
  never: 'never',
  unverifiedShort: 'unverified',
  revoke: 'Revoke',
  revokeNamed: (name: string) => `Revoke access of ${name}`,
  scopeShort: { read: 'read', write: 'act' } as Record<Scope, string>,
};

const de: typeof en = {
  consentTitle: (app: string) => `${app} autorisieren?`,
  from: 'Ausgewiesen durch',
  unverifiedTitle: 'Nicht geprüfte App',
  unverified:
    'Diese App hat sich selbst registriert: Ihren Namen wählt die App selbst, niemand hat ihn geprüft. Fahren Sie nur fort, wenn Sie dies aus einer App heraus gestartet haben, der Sie vertrauen.',
  verified: 'Diese App weist sich durch ein unter dieser Adresse veröffentlichtes Dokument aus.',
  returnsTo: 'Nach Ihrer Antwort geht es zurück zu',
  actsFor: (name: string, email: string) => `Sie handelt in Ihrem Namen (${name}, ${email}) und kann:`,
  approve: 'Zulassen',
  deny: 'Ablehnen',
  revokeNote: 'Sie können den Zugriff jederzeit widerrufen, auf der Seite',
  apiPage: 'Einstellungen (autorisierte Apps)',
  refusedTitle: 'Apps brauchen den Tarif Starter',
  refused: (plan: string) =>
    `Ihr Tarif (${plan}) erlaubt keine Autorisierung von Apps. Ab Starter können Apps und KI-Assistenten Ihr Konto über OAuth nutzen.`,
  backToApp: 'Zurück zur App (sie erfährt, dass der Zugriff abgelehnt wurde)',
  seePlan: 'Ihren Tarif ansehen und ein Upgrade anfragen',
  appsTitle: 'Autorisierte Apps',
  appsNone: (mcp: string) =>
    `Keine Apps autorisiert. Apps, die sich über OAuth verbinden (etwa KI-Assistenten über den MCP-Server unter ${mcp}), erscheinen hier.`,
  colApp: 'App',
  colHost: 'Ausgewiesen durch',
  colScopes: 'Darf',
  colAuthorised: 'Autorisiert',
  colLastUsed: 'Zuletzt benutzt',
  never: 'nie',
  unverifiedShort: 'nicht geprüft',
  revoke: 'Widerrufen',
  revokeNamed: (name: string) => `Zugriff von ${name} widerrufen`,
  scopeShort: { read: 'lesen', write: 'handeln' },
};

export const oauthText = (locale: Locale): typeof en => (locale === 'de' ? de : en);

export const scopeText = (scope: Scope, locale: Locale): string => SCOPE_TEXT[scope][locale === 'de' ? 'de' : 'en'];
