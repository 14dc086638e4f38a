import type { ThrottleStore } from '../db/store/throttles.ts';
import { countInWindow, type WindowCounter } from './sliding-window.ts';

/**
 * Sign-ups cost a password hash each (scrypt, ~100 ms of a core and 32 MiB): at most PER_ADDRESS per client
 * address within WINDOW_MS get that far; past that, 429 until the oldest leaves the window. Attempts refused
 * by validation (name, the password rule) hash nothing and are not counted; a taken address is counted, as it
 * costs the same hash and gets the same answer as a new one (services/account-mail.ts).
 */
export const SIGN_UP_THROTTLE = { windowMs: 60 * 60_000, perAddress: 10 } as const;

export type SignUpSlot = { kind: 'reserved'; release: () => Promise<void> } | { kind: 'throttled'; until: Date };

/** Counts this sign-up against its address (recorded first, so parallel ones see each other), or refuses it. */
export async function reserveSignUp(throttles: ThrottleStore, ip: string, now: Date): Promise<SignUpSlot> {
  const counter: WindowCounter = {
    record: (at) => throttles.recordSignUpAttempt(ip, at),
    remove: (id) => throttles.deleteSignUpAttempt(id),
    timesSince: (since, limit) => throttles.signUpAttemptTimes(ip, since, limit),
    trimBefore: (before) => throttles.deleteSignUpAttemptsBefore(before),
  };
  const slot = await countInWindow(
    counter,
    { max: SIGN_UP_THROTTLE.perAddress, windowMs: SIGN_UP_THROTTLE.windowMs },
    now,
  );
  return slot.kind === 'counted' ? { kind: 'reserved', release: () => counter.remove(slot.id) } : slot;
}
