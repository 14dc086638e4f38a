import { ENDED_BY_NEW_PASSWORD } from '../core/account/links.ts';
import type { Locale } from '../core/i18n/locale.ts';
import type { User } from '../core/user.ts';
import type { AccountLinkStore } from '../db/store/account-links.ts';
import type { ThrottleStore } from '../db/store/throttles.ts';
import type { UserStore } from '../db/store/users.ts';
import { newPasswordProblem } from './accounts.ts';
import { checkCurrentPassword } from './current-password.ts';
import { hashPassword } from './passwords.ts';
import type { SignInClient } from './sign-in-throttle.ts';

export type PasswordChangeOutcome =
  | { kind: 'changed' }
  | { kind: 'invalid'; field: 'current_password' | 'new_password'; message: string }
  | { kind: 'throttled'; until: Date };

/**
 * Changes the user's password when `current` is theirs (checked under the current-password throttle); the new
 * one is judged by the rule for new passwords. Every pending reset and e-mail change link ends with the old
 * password. Signing out the user's other sessions is the caller's (the web area keeps the session that asked).
 */
export async function changePassword(
  deps: { users: UserStore; throttles: ThrottleStore; accountLinks: AccountLinkStore },
  user: User,
  input: { current: string; next: string; client: SignInClient },
  now: Date,
  locale: Locale = 'en',
): Promise<PasswordChangeOutcome> {
  const checked = await checkCurrentPassword(deps, user, input.current, input.client, now);
  if (checked.kind === 'throttled') return checked;
  if (checked.kind === 'wrong')
    return { kind: 'invalid', field: 'current_password', message: 'The current password is not correct.' };
  const weak = newPasswordProblem(input.next, user, locale);
  if (weak) return { kind: 'invalid', field: 'new_password', message: weak };
  await deps.users.setPasswordHash(user.id, await hashPassword(input.next), now);
  await deps.accountLinks.endForUser(user.id, ENDED_BY_NEW_PASSWORD, now);
  return { kind: 'changed' };
}
