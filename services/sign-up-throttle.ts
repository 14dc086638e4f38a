import type { ThrottleStore } from '../db/store/throttles.ts';

/**
 * Sign-ups cost a password hash each (scrypt, ~100 ms of a core and 32 MiB): at most PER_ADDRESS per client
 * address within WINDOW_MS get that far; past that, 429 until the oldest leaves the window. Attempts refused
 * by validation (taken e-mail, short password) hash nothing and are not counted.
 */
export const SIGN_UP_THROTTLE = { windowMs: 60 * 60_000, perAddress: 10 } as const;

export type SignUpSlot = { kind: 'reserved'; release: () => Promise<void> } | { kind: 'throttled'; until: Date };

/** Counts this sign-up against its address (recorded first, so parallel ones see each other), or refuses it. */
export async function reserveSignUp(throttles: ThrottleStore, ip: string, now: Date): Promise<SignUpSlot> {
  const attempt = await throttles.recordSignUpAttempt(ip, now);
  const release = () => throttles.deleteSignUpAttempt(attempt);
  const since = new Date(now.getTime() - SIGN_UP_THROTTLE.windowMs);
  const times = await throttles.signUpAttemptTimes(ip, since, SIGN_UP_THROTTLE.perAddress + 1);
  if (times.length <= SIGN_UP_THROTTLE.perAddress) {
    await throttles.deleteSignUpAttemptsBefore(since);
    return { kind: 'reserved', release };
  }
  await release();
  return { kind: 'throttled', until: new Date(times.at(-1)!.getTime() + SIGN_UP_THROTTLE.windowMs) };
}
