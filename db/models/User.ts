import { Model } from 'objection';
import type { PlanKey } from '../../core/plans.ts';

export class User extends Model {
  static override tableName = 'users';

  declare id: number;
  declare name: string;
  declare email: string;
  declare password_hash: string | null;
  declare plan: PlanKey;
  declare created_at: Date;
  declare updated_at: Date;
}
