import { createHash } from 'node:crypto';
import type { FailureScope, ThrottleStore } from '../db/store/throttles.ts';

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

export type SignInOutcome<U> =
  { kind: 'signed_in'; user: U } | { kind: 'wrong_credentials' } | { kind: 'throttled'; until: Date };

/**
 * One sign-in attempt under the throttle. The attempt is recorded as a failure before the password is checked
 * and the counts include it, so parallel attempts see each other and no more than the limit are ever checked;
 * it is taken back when refused or successful. The password check (scrypt) holds no connection.
 */
export async function throttledSignIn<U>(
  throttles: ThrottleStore,
  email: string,
  client: SignInClient,
  now: Date,
  verify: () => Promise<U | undefined>,
): Promise<SignInOutcome<U>> {
  const hash = emailHash(email);
  const attempt = await throttles.recordSignInFailure({
    emailHash: hash,
    ip: client.ip,
    device: client.device,
    at: now,
  });
  let failed = false;
  try {
    const until = await blockedUntil(throttles, hash, client, now);
    if (until) return { kind: 'throttled', until };
    const user = await verify();
    if (!user) {
      failed = true;
      // Old rows are of no use to anyone: trim them as we go.
      await throttles.deleteSignInFailuresBefore(new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs));
      return { kind: 'wrong_credentials' };
    }
    await throttles.clearSignInFailures(client.device ? { device: client.device } : { emailHash: hash, ip: client.ip });
    return { kind: 'signed_in', user };
  } finally {
    if (!failed) await throttles.deleteSignInFailure(attempt);
  }
}

/** When sign-in opens again for this client and e-mail, or null when it is open now (counting this attempt). */
async function blockedUntil(
  throttles: ThrottleStore,
  hash: string,
  client: SignInClient,
  now: Date,
): Promise<Date | null> {
  const since = new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs);
  const blockedBy = async (scope: FailureScope, limit: number): Promise<Date | null> => {
    const times = await throttles.signInFailureTimes(scope, since, limit + 1);
    // Over the limit with this attempt: open again when the limit-th failure before it leaves the window.
    return times.length > limit ? new Date(times.at(-1)!.getTime() + SIGN_IN_THROTTLE.windowMs) : null;
  };
  const until = client.device
    ? [await blockedBy({ device: client.device }, SIGN_IN_THROTTLE.perDevice)]
    : [
        await blockedBy({ emailHash: hash }, SIGN_IN_THROTTLE.perEmail),
        await blockedBy({ ip: client.ip }, SIGN_IN_THROTTLE.perAddress),
      ];
  const dates = until.filter((d): d is Date => d !== null);
  return dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;
}
