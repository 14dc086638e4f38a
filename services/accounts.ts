import type { Locale } from '../core/i18n/locale.ts';
import { isPlanKey, type PlanKey } from '../core/plans.ts';
import type { User } from '../core/user.ts';
import type { UserStore } from '../db/store/users.ts';
import { checkNewPassword } from './password-rule.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export class AccountError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

/**
 * `locale`: the language of the user's e-mails (alerts); English when not given. `newPassword`: judge the
 * password by the rule for new passwords (services/password-rule.ts), as sign-up and the operator's command do;
 * fixtures and tests make users with any password. `emailVerified` (default true): accounts made by the operator,
 * the demo and fixtures are verified; sign-up makes unverified ones (services/account-mail.ts).
 */
export async function createUser(
  users: UserStore,
  input: {
    name: string;
    email: string;
    password: string | null;
    plan: PlanKey;
    locale?: Locale;
    newPassword?: boolean;
    emailVerified?: boolean;
    now?: Date;
  },
): Promise<User> {
  if (!new RegExp(EMAIL_PATTERN).test(input.email))
    throw new AccountError('email', 'The email must be a valid email address.');
  if (input.password !== null && input.newPassword) {
    const verdict = checkNewPassword(input.password, input, input.locale ?? 'en');
    if (!verdict.ok) throw new AccountError('password', verdict.reason);
  }
  if (await findUserByEmail(users, input.email)) throw new AccountError('email', 'The email has already been taken.');
  const user = await users.insert({
    name: input.name.trim(),
    email: input.email.trim(),
    plan: input.plan,
    passwordHash: input.password === null ? null : await hashPassword(input.password),
    locale: input.locale ?? null,
    emailVerifiedAt: input.emailVerified === false ? null : (input.now ?? new Date()),
  });
  if (user === 'email_taken') throw new AccountError('email', 'The email has already been taken.');
  return user;
}

export async function findUserByEmail(users: UserStore, email: string): Promise<User | undefined> {
  return users.findByEmail(email.trim());
}

/** The user when the password matches; the same answer (undefined) for an unknown e-mail and a wrong password. */
export async function authenticate(users: UserStore, email: string, password: string): Promise<User | undefined> {
  const found = await users.findWithPasswordHash(email.trim());
  const ok = await verifyPassword(password, found?.passwordHash ?? null);
  return ok ? found?.user : undefined;
}

export async function setPlan(users: UserStore, userId: number, plan: string, now: Date = new Date()): Promise<User> {
  if (!isPlanKey(plan)) throw new AccountError('plan', `Unknown plan ${plan}.`);
  const user = await users.setPlan(userId, plan, now);
  if (!user) throw new AccountError('user', `No user ${userId}.`);
  return user;
}

/**
 * What is wrong with a new password (the password change in the settings), in `locale`, or undefined when it
 * passes the rule for new passwords (services/password-rule.ts), the one sign-up uses.
 */
export function newPasswordProblem(
  password: string,
  user: { email: string; name: string },
  locale: Locale = 'en',
): string | undefined {
  const verdict = checkNewPassword(password, user, locale);
  return verdict.ok ? undefined : verdict.reason;
}
