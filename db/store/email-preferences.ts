import type { Knex } from 'knex';
import type { Locale } from '../../core/i18n/locale.ts';
import {
  DEFAULT_EMAIL_PREFERENCES,
  EMAIL_KINDS,
  type EmailKind,
  type EmailPreferences,
} from '../../core/email-preferences.ts';

export interface EmailPreferenceStore {
  /** The user's choice per kind; a kind never chosen is on. */
  get(userId: number): Promise<EmailPreferences>;
  set(userId: number, preferences: EmailPreferences, now: Date): Promise<void>;
}

/**
 * Every query on `email_preferences`. The stores that find an alert e-mail's recipient (alerts, rum-alerts)
 * read the same table with `wantsEmailSql`, so the rule "no row means on" is written once.
 */
export function createEmailPreferenceStore(knex: Knex): EmailPreferenceStore {
  return {
    async get(userId) {
      const rows = (await knex('email_preferences').where({ user_id: userId }).select('kind', 'enabled')) as {
        kind: EmailKind;
        enabled: boolean;
      }[];
      const preferences = { ...DEFAULT_EMAIL_PREFERENCES };
      for (const row of rows) if (EMAIL_KINDS.includes(row.kind)) preferences[row.kind] = row.enabled;
      return preferences;
    },

    async set(userId, preferences, now) {
      const rows = EMAIL_KINDS.map((kind) => ({ user_id: userId, kind, enabled: preferences[kind], updated_at: now }));
      await knex('email_preferences').insert(rows).onConflict(['user_id', 'kind']).merge(['enabled', 'updated_at']);
    },
  };
}

/** A select expression: whether user `userColumn` wants e-mails of `kind` (true unless turned off). */
export const wantsEmailSql = (knex: Knex, userColumn: string, kind: EmailKind): Knex.Raw =>
  knex.raw(
    `coalesce((select p.enabled from email_preferences p where p.user_id = ${userColumn} and p.kind = ?), true) as wants_email`,
    [kind],
  );

/** The row a recipient query selects: the user's address, name, language, verification and `wantsEmailSql`. */
export interface RecipientRow {
  email: string;
  name: string;
  locale: Locale | null;
  email_verified_at: Date | null;
  wants_email: boolean;
}

/** An alert e-mail's recipient from its row (English when the user chose no language). */
export const recipientFromRow = (row: RecipientRow) => ({
  email: row.email,
  name: row.name,
  locale: row.locale ?? ('en' as Locale),
  verified: row.email_verified_at !== null,
  wantsEmail: row.wants_email,
});
