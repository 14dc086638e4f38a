import type { Storage } from '../db/store/index.ts';
import { createUser, findUserByEmail } from './accounts.ts';
import { mintToken } from './tokens.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';
const DEMO_TOKEN_NAME = 'local demo (replaced at every start)';

/**
 * Local development only: a Pro demo account, and a fresh token for it at every start (the previous demo
 * token is revoked, so tokens do not pile up). The start command prints both.
 */
export async function ensureDemoAccess(
  storage: Pick<Storage, 'users' | 'tokens'>,
): Promise<{ email: string; password: string; token: string }> {
  const user =
    (await findUserByEmail(storage.users, DEMO_EMAIL)) ??
    (await createUser(storage.users, { name: 'Demo User', email: DEMO_EMAIL, password: DEMO_PASSWORD, plan: 'pro' }));
  await storage.tokens.deleteNamed(user.id, DEMO_TOKEN_NAME);
  const { token } = await mintToken(storage.tokens, user.id, DEMO_TOKEN_NAME, null);
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, token };
}
