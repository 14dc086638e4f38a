import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt (a memory-hard, deliberately slow KDF built into Node); parameters are stored with each hash. */
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

/**
 * What a password is checked against when there is no stored hash (unknown e-mail, account without a
 * password): the same parameters, so every sign-in costs the same work. Nothing derives to all zeros.
 */
const DUMMY_HASH = [
  'scrypt',
  PARAMS.N,
  PARAMS.r,
  PARAMS.p,
  Buffer.alloc(16).toString('base64'),
  Buffer.alloc(PARAMS.keyLength).toString('base64'),
].join('$');

/**
 * At most this many derivations at once: each runs on one of libuv's four threads for ~100 ms, and a burst of
 * sign-ins must not leave none for file and DNS work (asset reads, lookups).
 */
const PARALLEL = 2;
let running = 0;
const queue: Array<() => void> = [];
let derivations = 0;

/** How many scrypt derivations this process has run: a counter of hashing work (tests compare it). */
export const scryptDerivations = (): number => derivations;

async function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  if (running < PARALLEL) running++;
  else await new Promise<void>((start) => queue.push(start));
  try {
    return await new Promise((resolveKey, reject) =>
      scryptCallback(
        password.normalize('NFKC'),
        salt,
        keyLength,
        { ...options, maxmem: 128 * 1024 * 1024 },
        (error, key) => (error ? reject(error) : resolveKey(key)),
      ),
    );
  } finally {
    derivations++;
    const next = queue.shift();
    if (next) next();
    else running--;
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS.keyLength, { N: PARAMS.N, r: PARAMS.r, p: PARAMS.p });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether the password matches; without a usable stored hash it still does the work, and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const usable = stored?.split('$').length === 6 && stored.startsWith('scrypt$');
  const [, n, r, p, saltB64, keyB64] = (usable ? stored : DUMMY_HASH).split('$') as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const expected = Buffer.from(keyB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return usable && timingSafeEqual(actual, expected);
}
