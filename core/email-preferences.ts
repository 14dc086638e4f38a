/**
 * The kinds of e-mail a user can turn off in the settings: score alerts of monitored targets and live-data
 * alerts. Every kind is on until the user turns it off (no stored row reads as on).
 */
export const EMAIL_KINDS = ['target_alerts', 'live_alerts'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
export type EmailPreferences = Record<EmailKind, boolean>;

export const DEFAULT_EMAIL_PREFERENCES: EmailPreferences = { target_alerts: true, live_alerts: true };
