import type { Locale } from '../core/i18n/locale.ts';
import { isPlanKey, type PlanKey } from '../core/plans.ts';
import type { User } from '../core/user.ts';
import type { UserStore } from '../db/store/users.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export class AccountError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
export const MIN_PASSWORD_LENGTH = 10;

/** `locale`: the language of the user's e-mails (alerts); English when not given. */
export async function createUser(
  users: UserStore,
  input: { name: string; email: string; password: string | null; plan: PlanKey; locale?: Locale },
): Promise<User> {
  if (!new RegExp(EMAIL_PATTERN).test(input.email))
    throw new AccountError('email', 'The email must be a valid email address.');
  const weak = input.password === null ? undefined : newPasswordProblem(input.password);
  if (weak) throw new AccountError('password', weak);
  if (await findUserByEmail(users, input.email)) throw new AccountError('email', 'The email has already been taken.');
  const user = await users.insert({
    name: input.name.trim(),
    email: input.email.trim(),
    plan: input.plan,
    passwordHash: input.password === null ? null : await hashPassword(input.password),
    locale: input.locale ?? null,
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

/** What is wrong with a new password (sign-up, password change), or undefined when it is good enough. */
export function newPasswordProblem(password: string): string | undefined {
  return password.length < MIN_PASSWORD_LENGTH
    ? `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`
    : undefined;
}

/**
 * Changes the user's password when `current` is theirs; the new one is judged by the sign-up rule. Signing out
 * the user's other sessions is the caller's (the web area keeps the session that asked).
 */
export async function changePassword(
  users: UserStore,
  userId: number,
  current: string,
  next: string,
  now: Date,
): Promise<void> {
  const hash = await users.passwordHashOf(userId);
  if (!(await verifyPassword(current, hash ?? null)))
    throw new AccountError('current_password', 'The current password is not correct.');
  const weak = newPasswordProblem(next);
  if (weak) throw new AccountError('new_password', weak);
  await users.setPasswordHash(userId, await hashPassword(next), now);
}
