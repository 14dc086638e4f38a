/** What a one-use account link does (services/account-mail.ts). */
export type AccountLinkPurpose = 'password_reset' | 'email_verify' | 'email_change' | 'email_change_cancel';

/**
 * The links a new password ends (a reset, a change in the settings, the password set when verifying): other
 * reset links, and every pending e-mail change with its "cancel this change" link. Whoever knew the old
 * password may have asked for them.
 */
export const ENDED_BY_NEW_PASSWORD: readonly AccountLinkPurpose[] = [
  'password_reset',
  'email_change',
  'email_change_cancel',
];
