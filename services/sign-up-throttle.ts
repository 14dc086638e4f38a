import type { Knex } from 'knex';

/**
 * Sign-ups cost a password hash each (scrypt, ~100 ms of a core and 32 MiB): at most PER_ADDRESS per client
 * address within WINDOW_MS get that far; past that, 429 until the oldest leaves the window. Attempts refused
 * by validation (taken e-mail, short password) hash nothing and are not counted.
 */
export const SIGN_UP_THROTTLE = { windowMs: 60 * 60_000, perAddress: 10 } as const;

export type SignUpSlot = { kind: 'reserved'; release: () => Promise<void> } | { kind: 'throttled'; until: Date };

/** Counts this sign-up against its address (recorded first, so parallel ones see each other), or refuses it. */
export async function reserveSignUp(knex: Knex, ip: string, now: Date): Promise<SignUpSlot> {
  const [row] = await knex('sign_up_attempts').insert({ ip, attempted_at: now }).returning<Array<{ id: number }>>('id');
  const release = async () => void (await knex('sign_up_attempts').where({ id: row!.id }).delete());
  const since = new Date(now.getTime() - SIGN_UP_THROTTLE.windowMs);
  const rows = await knex('sign_up_attempts')
    .where({ ip })
    .where('attempted_at', '>', since)
    .orderBy([{ column: 'attempted_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(SIGN_UP_THROTTLE.perAddress + 1)
    .select<Array<{ attempted_at: Date }>>('attempted_at');
  if (rows.length <= SIGN_UP_THROTTLE.perAddress) {
    await knex('sign_up_attempts').where('attempted_at', '<', since).delete();
    return { kind: 'reserved', release };
  }
  await release();
  return { kind: 'throttled', until: new Date(rows.at(-1)!.attempted_at.getTime() + SIGN_UP_THROTTLE.windowMs) };
}
