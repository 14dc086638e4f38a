import type { Knex } from 'knex';
import type { Locale } from '../../core/i18n/locale.ts';
import type { PlanKey } from '../../core/plans.ts';
import type { User } from '../../core/user.ts';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string | null;
  plan: PlanKey;
  /** The language of the user's e-mails; null reads as English. */
  locale: Locale | null;
  /** When the address was shown to be the user's (a followed link, or made by the operator); null: not yet. */
  email_verified_at: Date | null;
  /** When the password was last set after the account was made (reset, change, verification). */
  password_changed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const toUser = (row: Pick<UserRow, 'id' | 'name' | 'email' | 'plan'>): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  plan: row.plan,
});

export interface UserStore {
  findById(id: number): Promise<User | undefined>;
  /** E-mail addresses match whatever their case. */
  findByEmail(email: string): Promise<User | undefined>;
  /** The user and their password hash (null: no password set), for checking a password. */
  findWithPasswordHash(email: string): Promise<{ user: User; passwordHash: string | null } | undefined>;
  /** The new user, or `email_taken` when the (case-insensitively) unique e-mail is already used. */
  /** `locale`: the language of the user's e-mails (null: English). */
  insert(user: {
    name: string;
    email: string;
    plan: PlanKey;
    passwordHash: string | null;
    locale?: Locale | null;
    emailVerifiedAt?: Date | null;
  }): Promise<User | 'email_taken'>;
  setPlan(id: number, plan: PlanKey, now: Date): Promise<User | undefined>;
  /** The user's language and whether their address is verified (account mail). */
  mailProfile(id: number): Promise<{ user: User; locale: Locale; emailVerified: boolean } | undefined>;
  /** Sets the password and records when (`passwordChangedAt`). */
  setPasswordHash(id: number, passwordHash: string, now: Date): Promise<void>;
  /** When the password was last set (null: never since the account was made). */
  passwordChangedAt(id: number): Promise<Date | null | undefined>;
  markEmailVerified(id: number, now: Date): Promise<void>;
  /** Moves the user to a new (verified) address; `email_taken` when another account has it. */
  changeEmail(id: number, email: string, now: Date): Promise<User | 'email_taken' | undefined>;
  /** The language of the user's e-mails (null: never chosen, read as English). */
  localeOf(id: number): Promise<Locale | null | undefined>;
  updateProfile(id: number, profile: { name: string; locale: Locale }, now: Date): Promise<void>;
  passwordHashOf(id: number): Promise<string | null | undefined>;
}

/** Every query on `users`. */
export function createUserStore(knex: Knex): UserStore {
  const users = () => knex<UserRow>('users');
  // A closed account (deleted by its owner, db/store/account-data.ts) is found by nothing here until its row goes.
  const open = () => users().whereNull('deleted_at');
  const byEmail = (email: string) => open().whereRaw('lower(email) = lower(?)', [email]).first();
  return {
    async findById(id) {
      const row = await open().where({ id }).first();
      return row && toUser(row as UserRow);
    },

    async findByEmail(email) {
      const row = await byEmail(email);
      return row && toUser(row as UserRow);
    },

    async findWithPasswordHash(email) {
      const row = (await byEmail(email)) as UserRow | undefined;
      return row && { user: toUser(row), passwordHash: row.password_hash };
    },

    async insert(user) {
      try {
        const [row] = await users()
          .insert({
            name: user.name,
            email: user.email,
            plan: user.plan,
            password_hash: user.passwordHash,
            locale: user.locale ?? null,
            email_verified_at: user.emailVerifiedAt ?? null,
          })
          .returning('*');
        return toUser(row as UserRow);
      } catch (error) {
        if ((error as { constraint?: string }).constraint === 'users_email_unique') return 'email_taken';
        throw error;
      }
    },

    async setPlan(id, plan, now) {
      const [row] = await users().where({ id }).update({ plan, updated_at: now }).returning('*');
      return row && toUser(row as UserRow);
    },

    async mailProfile(id) {
      const row = (await open().where({ id }).first()) as UserRow | undefined;
      return row && { user: toUser(row), locale: row.locale ?? 'en', emailVerified: row.email_verified_at !== null };
    },

    async localeOf(id) {
      const row = await users().where({ id }).first('locale');
      return row && (row.locale ?? null);
    },

    async updateProfile(id, profile, now) {
      await users().where({ id }).update({ name: profile.name, locale: profile.locale, updated_at: now });
    },

    async passwordHashOf(id) {
      const row = await users().where({ id }).first('password_hash');
      return row && (row.password_hash ?? null);
    },

    async setPasswordHash(id, passwordHash, now) {
      await open().where({ id }).update({ password_hash: passwordHash, password_changed_at: now, updated_at: now });
    },

    async passwordChangedAt(id) {
      const row = (await users().where({ id }).first('password_changed_at')) as
        Pick<UserRow, 'password_changed_at'> | undefined;
      return row && row.password_changed_at;
    },

    async markEmailVerified(id, now) {
      await users().where({ id }).whereNull('email_verified_at').update({ email_verified_at: now });
    },

    async changeEmail(id, email, now) {
      try {
        const [row] = await open()
          .where({ id })
          .update({ email, email_verified_at: now, updated_at: now })
          .returning('*');
        return row && toUser(row as UserRow);
      } catch (error) {
        if ((error as { constraint?: string }).constraint === 'users_email_unique') return 'email_taken';
        throw error;
      }
    },
  };
}
