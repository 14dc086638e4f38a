import { createHmac } from 'node:crypto';

/** RFC 6238 as authenticator apps use it: HMAC-SHA1, 30-second steps from the Unix epoch, 6 digits. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, as seeds are shown: case, spaces and `=` padding ignored. Throws on any other character. */
export function decodeBase32(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) throw new Error('a TOTP seed is base32 (A-Z, 2-7)');
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** The code of a base32 seed at a time (ms since the epoch); RFC 4226's HOTP of the time step. */
export function totpCode(seedBase32: string, atMs: number, digits: number = TOTP_DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS)));
  const hmac = createHmac('sha1', decodeBase32(seedBase32)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}
