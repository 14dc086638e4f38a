const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Scan public ids: 26 lower-case Crockford base32 characters, the first 10 a millisecond timestamp, the
 * rest 80 random bits (the ULID layout). Opaque to clients, and they sort by creation time as text.
 */
export function newPublicId(now: Date = new Date()): string {
  return publicIdFrom(now.getTime(), crypto.getRandomValues(new Uint8Array(10)));
}

/**
 * The id of a time and 10 random bytes. Free of I/O, so workflow code can name a scan itself from its own
 * deterministic randomness (workflows/target-scan-run.ts): then an activity that stores it is safe to retry.
 */
export function publicIdFrom(timeMs: number, random: Uint8Array): string {
  if (random.length !== 10) throw new Error('a public id takes 10 random bytes');
  let time = timeMs;
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = CROCKFORD[time % 32]! + timePart;
    time = Math.floor(time / 32);
  }
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let randomPart = '';
  for (let i = 0; i < 16; i++) {
    randomPart = CROCKFORD[Number(bits & 31n)]! + randomPart;
    bits >>= 5n;
  }
  return timePart + randomPart;
}

export const PUBLIC_ID_PATTERN = '^[0-9a-hjkmnp-tv-z]{26}$';
