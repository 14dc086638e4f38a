/**
 * OAuth scopes (the spec shows none; this is our decision, documented in docs/oauth-and-mcp.md): two, because the
 * useful line for a performance service is "can look" versus "can act".
 * - `read`: every GET (scans, targets, user flows and their runs, alerts, live data, /me).
 * - `write`: everything else too (start scans and flow runs, share links, targets, flows and their secrets,
 *   marking alerts, ...); implies `read`.
 * An app that asks for no scope gets both, so that an authorised app works on every endpoint as the spec says.
 */
export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;

export const SCOPE_TEXT: Record<Scope, { en: string; de: string }> = {
  read: {
    en: 'Read your scans, monitored targets, user flows and their runs, alerts and live data, and your account details',
    de: 'Ihre Scans, überwachten Ziele, User-Flows und deren Läufe, Alarme, Live-Daten und Kontodaten lesen',
  },
  write: {
    en: 'Start scans and flow runs, manage targets, user flows with the passwords they type (never shown again), share links and live-data sites, and mark alerts as read',
    de: 'Scans und Flow-Läufe starten, Ziele, User-Flows mit den Passwörtern, die sie eingeben (nie wieder angezeigt), Freigabelinks und Live-Daten-Websites verwalten und Alarme als gelesen markieren',
  },
};

/** Which scope a request needs: reading methods need `read`, all others `write`. */
export const scopeForMethod = (method: string): Scope =>
  ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()) ? 'read' : 'write';

/** Whether granted scopes allow an action needing `needed` (`write` includes `read`). */
export const allows = (granted: readonly string[], needed: Scope): boolean =>
  granted.includes(needed) || (needed === 'read' && granted.includes('write'));

/** The scopes out of a space-separated string, known ones only, in canonical order. */
export const parseScopes = (value: string | undefined): Scope[] => {
  const asked = new Set((value ?? '').split(' ').filter(Boolean));
  return SCOPES.filter((scope) => asked.has(scope));
};
