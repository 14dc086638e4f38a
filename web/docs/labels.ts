import type { Locale } from '../../core/i18n/locale.ts';

/** The API reference page's own words (the reference itself is the OpenAPI document's, in English). */
const en = {
  title: 'API reference',
  intro:
    'Every endpoint of the REST API, its parameters, request and response schemas with examples, the webhook events we send, and how apps connect through OAuth 2.1 and the MCP server.',
  document: 'The OpenAPI 3.1 document',
  tryTitle: 'Try calls with your account',
  tryExplain:
    'Create a token that expires in one hour; it is filled in below, so "Try it out" sends real requests as you (they count against your daily limit). It is not added to your personal tokens in the settings.',
  tryButton: 'Create a one-hour token',
  tryReady:
    'A token valid for one hour is filled in below. It is shown only in this page; reloading the page forgets it.',
  trySignIn: 'Sign in to try calls with your own account;',
  trySignInLink: 'sign in',
  tryOwnToken: 'or use "Authorize" with one of your personal API tokens.',
  noApi: 'Your plan has no API access, so calls made from here are refused (403).',
  noScript: 'The interactive reference needs JavaScript. The whole reference is in the OpenAPI document:',
  tokenName: 'API reference (one hour)',
  quickStartTitle: 'Quick start',
  quickStartToken: 'Create a personal API token in',
  quickStartSettings: 'Settings → API tokens',
  quickStartTokenAfter: '(plans with API access).',
  quickStartCall: 'Send it as a bearer token with every request, for example to see your account:',
  quickStartScan: 'Start a scan:',
};

const de: typeof en = {
  title: 'API-Referenz',
  intro:
    'Alle Endpunkte der REST-API mit Parametern, Anfrage- und Antwortschemata samt Beispielen, die Webhook-Ereignisse, die wir senden, und wie Apps sich über OAuth 2.1 und den MCP-Server verbinden.',
  document: 'Das OpenAPI-3.1-Dokument',
  tryTitle: 'Aufrufe mit Ihrem Konto ausprobieren',
  tryExplain:
    'Erstellen Sie ein Token, das nach einer Stunde abläuft; es wird unten eingesetzt, sodass „Try it out“ echte Anfragen in Ihrem Namen sendet (sie zählen zum Tageslimit). Es erscheint nicht bei Ihren persönlichen Tokens in den Einstellungen.',
  tryButton: 'Token für eine Stunde erstellen',
  tryReady:
    'Ein eine Stunde gültiges Token ist unten eingesetzt. Es steht nur in dieser Seite; beim Neuladen ist es vergessen.',
  trySignIn: 'Melden Sie sich an, um Aufrufe mit Ihrem Konto auszuprobieren;',
  trySignInLink: 'anmelden',
  tryOwnToken: 'oder nutzen Sie „Authorize“ mit einem Ihrer persönlichen API-Tokens.',
  noApi: 'Ihr Tarif enthält keinen API-Zugang; Aufrufe von hier werden abgelehnt (403).',
  noScript: 'Die interaktive Referenz braucht JavaScript. Die ganze Referenz steht im OpenAPI-Dokument:',
  tokenName: 'API-Referenz (eine Stunde)',
  quickStartTitle: 'Schnellstart',
  quickStartToken: 'Legen Sie ein persönliches API-Token an unter',
  quickStartSettings: 'Einstellungen → API-Tokens',
  quickStartTokenAfter: '(Tarife mit API-Zugang).',
  quickStartCall: 'Senden Sie es bei jeder Anfrage als Bearer-Token, zum Beispiel um Ihr Konto abzurufen:',
  quickStartScan: 'Einen Scan starten:',
};

export type DocsText = typeof en;
export const docsText = (locale: Locale): DocsText => (locale === 'de' ? de : en);
