import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Slows down password guessing on the web sign-in form without letting a stranger lock an account's owner
 * out (OWASP's device-cookie lockout). Within WINDOW_MS:
 *  - a browser without a trusted device cookie for the e-mail is refused (429) after PER_EMAIL failures for
 *    that e-mail from all such browsers, or PER_ADDRESS failures from its client address for any e-mail;
 *  - a browser with one (it signed in as that e-mail before) is refused only after PER_DEVICE failures of its
 *    own; other people's failures, finished or in flight, never count against it.
 * Refused attempts do not check the password. A success clears the failures of that device, or, without one,
 * those of that e-mail from that address.
 */
export const SIGN_IN_THROTTLE = { windowMs: 15 * 60_000, perEmail: 10, perAddress: 50, perDevice: 10 } as const;

export const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/** Who is trying: the client address, and the device id when the browser showed a valid device cookie for the e-mail. */
export interface SignInClient {
  ip: string;
  device: string | null;
}

export type SignInOutcome<U> = { kind: 'signed_in'; user: U } | { kind: 'wrong_credentials' } | { kind: 'throttled'; until: Date };

/**
 * One sign-in attempt under the throttle. The attempt is recorded as a failure before the password is checked
 * and the counts include it, so parallel attempts see each other and no more than the limit are ever checked;
 * it is taken back when refused or successful. The password check (scrypt) holds no connection.
 */
export async function throttledSignIn<U>(knex: Knex, email: string, client: SignInClient, now: Date, verify: () => Promise<U | undefined>): Promise<SignInOutcome<U>> {
  const hash = emailHash(email);
  const [row] = await knex('sign_in_failures').insert({ email_hash: hash, ip: client.ip, device: client.device, failed_at: now }).returning<Array<{ id: number }>>('id');
  let failed = false;
  try {
    const until = await blockedUntil(knex, hash, client, now);
    if (until) return { kind: 'throttled', until };
    const user = await verify();
    if (!user) {
      failed = true;
      // Old rows are of no use to anyone: trim them as we go.
      await knex('sign_in_failures').where('failed_at', '<', new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs)).delete();
      return { kind: 'wrong_credentials' };
    }
    await (client.device ? knex('sign_in_failures').where({ device: client.device }) : knex('sign_in_failures').where({ email_hash: hash, ip: client.ip }).whereNull('device')).delete();
    return { kind: 'signed_in', user };
  } finally {
    if (!failed) await knex('sign_in_failures').where({ id: row!.id }).delete();
  }
}

/** When sign-in opens again for this client and e-mail, or null when it is open now (counting this attempt). */
async function blockedUntil(knex: Knex, hash: string, client: SignInClient, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs);
  const blockedBy = async (where: Record<string, string>, trusted: boolean, limit: number): Promise<Date | null> => {
    const query = knex('sign_in_failures').where(where).where('failed_at', '>', since);
    if (!trusted) query.whereNull('device');
    const rows = await query.orderBy([{ column: 'failed_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1).select<Array<{ failed_at: Date }>>('failed_at');
    // Over the limit with this attempt: open again when the limit-th failure before it leaves the window.
    return rows.length > limit ? new Date(rows.at(-1)!.failed_at.getTime() + SIGN_IN_THROTTLE.windowMs) : null;
  };
  const until = client.device
    ? [await blockedBy({ device: client.device }, true, SIGN_IN_THROTTLE.perDevice)]
    : [await blockedBy({ email_hash: hash }, false, SIGN_IN_THROTTLE.perEmail), await blockedBy({ ip: client.ip }, false, SIGN_IN_THROTTLE.perAddress)];
  const dates = until.filter((d): d is Date => d !== null);
  return dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;
}
