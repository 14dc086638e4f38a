import type { PlanKey } from './plans.ts';

/** An account as the rest of the code sees it (db/store/users.ts maps it from its row; the password hash stays there). */
export interface User {
  id: number;
  name: string;
  email: string;
  plan: PlanKey;
}
