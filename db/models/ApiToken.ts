import { Model } from 'objection';

export class ApiToken extends Model {
  static override tableName = 'api_tokens';

  declare id: number;
  declare user_id: number;
  declare name: string;
  declare prefix: string;
  declare token_hash: string;
  declare expires_at: Date | null;
  declare last_used_at: Date | null;
  declare created_at: Date;
}
