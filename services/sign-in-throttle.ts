import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Slows down password guessing on the web sign-in form. Within WINDOW_MS, at most PER_EMAIL failed attempts
 * for one e-mail address (from anywhere) and PER_IP from one address (for any e-mail); past either, sign-in
 * is refused with 429 until the oldest counted failure leaves the window, whether or not the password is
 * right. A successful sign-in clears the failures of that e-mail address. Behind a load balancer (production),
 * the address is the client's from X-Forwarded-For (Koa's `proxy` setting).
 */
export const SIGN_IN_THROTTLE = { windowMs: 15 * 60_000, perEmail: 10, perIp: 50 } as const;

export const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export type SignInOutcome<U> = { kind: 'signed_in'; user: U } | { kind: 'wrong_credentials' } | { kind: 'throttled'; until: Date };

/**
 * One sign-in attempt under the throttle, on one connection. Attempts for one e-mail address never overlap:
 * an attempt that finds another one in progress (a transaction-scoped advisory lock) is refused at once
 * rather than queued, so parallel guessing can neither slip past the count nor tie up the connection pool.
 */
export async function throttledSignIn<U>(knex: Knex, email: string, ip: string, now: Date, verify: (db: Knex) => Promise<U | undefined>): Promise<SignInOutcome<U>> {
  const hash = emailHash(email);
  return knex.transaction(async (trx) => {
    const { rows } = await trx.raw<{ rows: Array<{ locked: boolean }> }>('select pg_try_advisory_xact_lock(hashtext(?)) as locked', [`sign-in:${hash}`]);
    if (!rows[0]?.locked) return { kind: 'throttled', until: new Date(now.getTime() + 1000) };
    const until = await blockedUntil(trx, hash, ip, now);
    if (until) return { kind: 'throttled', until };
    const user = await verify(trx);
    if (user) {
      await trx('sign_in_failures').where({ email_hash: hash }).delete();
      return { kind: 'signed_in', user };
    }
    await trx('sign_in_failures').insert({ email_hash: hash, ip, failed_at: now });
    // Old rows are of no use to anyone: trim them as we go.
    await trx('sign_in_failures').where('failed_at', '<', new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs)).delete();
    return { kind: 'wrong_credentials' };
  });
}

/** When sign-in opens again for this e-mail and address, or null when it is open now. */
async function blockedUntil(knex: Knex, hash: string, ip: string, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs);
  const blockedBy = async (column: 'email_hash' | 'ip', value: string, limit: number): Promise<Date | null> => {
    const rows = await knex('sign_in_failures').where(column, value).where('failed_at', '>', since).orderBy('failed_at', 'desc').limit(limit).select<Array<{ failed_at: Date }>>('failed_at');
    return rows.length >= limit ? new Date(rows.at(-1)!.failed_at.getTime() + SIGN_IN_THROTTLE.windowMs) : null;
  };
  const until = [await blockedBy('email_hash', hash, SIGN_IN_THROTTLE.perEmail), await blockedBy('ip', ip, SIGN_IN_THROTTLE.perIp)].filter((d): d is Date => d !== null);
  return until.length ? new Date(Math.max(...until.map((d) => d.getTime()))) : null;
}
