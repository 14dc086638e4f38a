import type { User } from '../core/user.ts';
import type { ThrottleStore } from '../db/store/throttles.ts';
import type { UserStore } from '../db/store/users.ts';
import { authenticate } from './accounts.ts';
import { throttledSignIn, type SignInClient } from './sign-in-throttle.ts';

export type CurrentPasswordCheck = { kind: 'ok' } | { kind: 'wrong' } | { kind: 'throttled'; until: Date };

/**
 * Every check of a signed-in user's current password (the password change, the e-mail change, the account
 * deletion) goes through this one function, under the sign-in throttle of the account's address: wrong
 * guesses on any of these forms and on the sign-in form count together, so none of them can be used to guess
 * the password faster than signing in.
 */
export async function checkCurrentPassword(
  deps: { users: UserStore; throttles: ThrottleStore },
  user: User,
  password: string,
  client: SignInClient,
  now: Date,
): Promise<CurrentPasswordCheck> {
  const checked = await throttledSignIn(deps.throttles, user.email, client, now, async () => {
    const found = await authenticate(deps.users, user.email, password);
    return found?.id === user.id ? found : undefined;
  });
  if (checked.kind === 'throttled') return { kind: 'throttled', until: checked.until };
  return checked.kind === 'signed_in' ? { kind: 'ok' } : { kind: 'wrong' };
}
