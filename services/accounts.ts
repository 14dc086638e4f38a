import type { Knex } from 'knex';
import { isPlanKey, type PlanKey } from '../core/plans.ts';
import { User } from '../db/models/User.ts';
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

export async function createUser(
  knex: Knex,
  input: { name: string; email: string; password: string | null; plan: PlanKey },
): Promise<User> {
  if (!new RegExp(EMAIL_PATTERN).test(input.email)) throw new AccountError('email', 'The email must be a valid email address.');
  if (input.password !== null && input.password.length < MIN_PASSWORD_LENGTH) {
    throw new AccountError('password', `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (await findUserByEmail(knex, input.email)) throw new AccountError('email', 'The email has already been taken.');
  try {
    return await User.query(knex).insertAndFetch({
      name: input.name.trim(),
      email: input.email.trim(),
      plan: input.plan,
      password_hash: input.password === null ? null : await hashPassword(input.password),
    });
  } catch (error) {
    if ((error as { constraint?: string }).constraint === 'users_email_unique') throw new AccountError('email', 'The email has already been taken.');
    throw error;
  }
}

export async function findUserByEmail(knex: Knex, email: string): Promise<User | undefined> {
  return User.query(knex).whereRaw('lower(email) = lower(?)', [email.trim()]).first();
}

export async function findUser(knex: Knex, id: number): Promise<User | undefined> {
  return User.query(knex).findById(id);
}

/** The user when the password matches; the same answer (undefined) for an unknown e-mail and a wrong password. */
export async function authenticate(knex: Knex, email: string, password: string): Promise<User | undefined> {
  const user = await findUserByEmail(knex, email);
  const ok = await verifyPassword(password, user?.password_hash ?? null);
  return ok ? user : undefined;
}

export async function setPlan(knex: Knex, userId: number, plan: string): Promise<User> {
  if (!isPlanKey(plan)) throw new AccountError('plan', `Unknown plan ${plan}.`);
  const user = await User.query(knex).patchAndFetchById(userId, { plan, updated_at: new Date() });
  if (!user) throw new AccountError('user', `No user ${userId}.`);
  return user;
}
