import type { Knex } from 'knex';

/** Whose sign-in failures to count: one trusted device's, or (without a device cookie) an e-mail's or an address's. */
export type FailureScope = { device: string } | { emailHash: string } | { ip: string };

export interface ThrottleStore {
  /** Records a sign-in attempt as a failure (taken back by deleteSignInFailure when it was not one); its id. */
  recordSignInFailure(failure: { emailHash: string; ip: string; device: string | null; at: Date }): Promise<number>;
  deleteSignInFailure(id: number): Promise<void>;
  /** When the scope's failures after `since` happened, newest first, at most `limit`; without a device scope, only failures without a device. */
  signInFailureTimes(scope: FailureScope, since: Date, limit: number): Promise<Date[]>;
  /** Clears a device's failures, or those of an e-mail from an address made without a device. */
  clearSignInFailures(scope: { device: string } | { emailHash: string; ip: string }): Promise<void>;
  deleteSignInFailuresBefore(before: Date): Promise<void>;

  /** Records a sign-up attempt of an address; its id. */
  recordSignUpAttempt(ip: string, at: Date): Promise<number>;
  deleteSignUpAttempt(id: number): Promise<void>;
  /** When the address's sign-up attempts after `since` happened, newest first, at most `limit`. */
  signUpAttemptTimes(ip: string, since: Date, limit: number): Promise<Date[]>;
  deleteSignUpAttemptsBefore(before: Date): Promise<void>;
}

/** Every query on the throttles' records (`sign_in_failures`, `sign_up_attempts`). */
export function createThrottleStore(knex: Knex): ThrottleStore {
  const failures = () => knex('sign_in_failures');
  const signUps = () => knex('sign_up_attempts');
  return {
    async recordSignInFailure({ emailHash, ip, device, at }) {
      const [row] = await failures()
        .insert({ email_hash: emailHash, ip, device, failed_at: at })
        .returning<Array<{ id: number }>>('id');
      return row!.id;
    },

    async deleteSignInFailure(id) {
      await failures().where({ id }).delete();
    },

    async signInFailureTimes(scope, since, limit) {
      const query = failures().where('failed_at', '>', since);
      if ('device' in scope) query.where({ device: scope.device });
      else query.where('emailHash' in scope ? { email_hash: scope.emailHash } : { ip: scope.ip }).whereNull('device');
      const rows = await query
        .orderBy([
          { column: 'failed_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .select<Array<{ failed_at: Date }>>('failed_at');
      return rows.map((row) => row.failed_at);
    },

    async clearSignInFailures(scope) {
      await (
        'device' in scope
          ? failures().where({ device: scope.device })
          : failures().where({ email_hash: scope.emailHash, ip: scope.ip }).whereNull('device')
      ).delete();
    },

    async deleteSignInFailuresBefore(before) {
      await failures().where('failed_at', '<', before).delete();
    },

    async recordSignUpAttempt(ip, at) {
      const [row] = await signUps().insert({ ip, attempted_at: at }).returning<Array<{ id: number }>>('id');
      return row!.id;
    },

    async deleteSignUpAttempt(id) {
      await signUps().where({ id }).delete();
    },

    async signUpAttemptTimes(ip, since, limit) {
      const rows = await signUps()
        .where({ ip })
        .where('attempted_at', '>', since)
        .orderBy([
          { column: 'attempted_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .select<Array<{ attempted_at: Date }>>('attempted_at');
      return rows.map((row) => row.attempted_at);
    },

    async deleteSignUpAttemptsBefore(before) {
      await signUps().where('attempted_at', '<', before).delete();
    },
  };
}
