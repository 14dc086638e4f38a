import type { Knex } from 'knex';
import type { PlanKey } from '../../core/plans.ts';
import type { User } from '../../core/user.ts';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string | null;
  plan: PlanKey;
  created_at: Date;
  updated_at: Date;
}

export const toUser = (row: Pick<UserRow, 'id' | 'name' | 'email' | 'plan'>): User => ({ id: row.id, name: row.name, email: row.email, plan: row.plan });

export type UserStore = ReturnType<typeof createUserStore>;

/** Every query on `users`. */
export function createUserStore(knex: Knex) {
  const users = () => knex<UserRow>('users');
  return {
    async findById(id: number): Promise<User | undefined> {
      const row = await users().where({ id }).first();
      return row && toUser(row);
    },
  };
}
