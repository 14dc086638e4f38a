import type { Client } from '@temporalio/client';
import { confirmsAccount } from '../core/account-deletion.ts';
import type { Clock } from '../core/clock.ts';
import type { User } from '../core/user.ts';
import type { AccountDataStore } from '../db/store/account-data.ts';
import type { ThrottleStore } from '../db/store/throttles.ts';
import type { UserStore } from '../db/store/users.ts';
import { startAccountDeletionWorkflow } from '../infra/temporal-client.ts';
import { checkCurrentPassword } from './current-password.ts';
import type { SignInClient } from './sign-in-throttle.ts';

export interface AccountDeletionDeps {
  accountData: AccountDataStore;
  users: UserStore;
  throttles: ThrottleStore;
  temporal: Client;
  taskQueuePrefix: string;
  clock: Clock;
}

export type DeleteAccountOutcome =
  /**
   * Closed: signed out everywhere, no password, no tokens. `workflow`: whether the deletion workflow was
   * started now, was running already, or could not be started (Temporal away): then the worker's
   * reconciler starts it (activities/reconcile.ts).
   */
  | { kind: 'closed'; workflow: 'started' | 'running' | 'not_started' }
  /** Nothing changed; each field that was wrong. */
  | { kind: 'invalid'; errors: { password?: 'wrong'; confirmation?: 'mismatch' } }
  /** Too many wrong passwords for this address or device (services/current-password.ts). */
  | { kind: 'throttled'; until: Date };

/**
 * "Delete my account": the current password (under the sign-in throttle, so the form cannot be used to guess
 * it) and the account's e-mail address typed as confirmation. Then the account is closed in one transaction
 * and the deletion workflow started (workflows/account-deletion.ts) to remove the rest.
 */
export async function deleteAccount(
  deps: AccountDeletionDeps,
  user: User,
  input: { password: string; confirmation: string },
  client: SignInClient,
): Promise<DeleteAccountOutcome> {
  const errors: { password?: 'wrong'; confirmation?: 'mismatch' } = {};
  if (!confirmsAccount(input.confirmation, user.email)) errors.confirmation = 'mismatch';
  const now = deps.clock();
  const checked = await checkCurrentPassword(deps, user, input.password, client, now);
  if (checked.kind === 'throttled') return { kind: 'throttled', until: checked.until };
  if (checked.kind === 'wrong') errors.password = 'wrong';
  if (errors.password || errors.confirmation) return { kind: 'invalid', errors };
  await deps.accountData.close(user.id, now);
  return { kind: 'closed', workflow: await startDeletion(deps, user.id) };
}

/** Starts the deletion workflow of a closed account; 'not_started' when Temporal did not answer. */
export async function startDeletion(
  deps: Pick<AccountDeletionDeps, 'temporal' | 'taskQueuePrefix'>,
  userId: number,
): Promise<'started' | 'running' | 'not_started'> {
  try {
    return (await startAccountDeletionWorkflow(deps.temporal, deps.taskQueuePrefix, userId)).status;
  } catch {
    return 'not_started';
  }
}
