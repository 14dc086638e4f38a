import { decodeBase32, totpCode } from '../../core/flows/totp.ts';

// RFC 6238, appendix B: the SHA-1 seed is the ASCII "12345678901234567890", codes of 8 digits.
const RFC_SEED = '12345678901234567890';
const RFC_SEED_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

it('decodes base32 as seeds are shown (lower case, spaces, padding)', () => {
  expect(decodeBase32(RFC_SEED_BASE32).toString('ascii')).toBe(RFC_SEED);
  expect(decodeBase32('gezd gnbv gy3t qojq gezd gnbv gy3t qojq').toString('ascii')).toBe(RFC_SEED);
  expect(decodeBase32('MZXW6===').toString('ascii')).toBe('foo');
  expect(() => decodeBase32('GEZ1')).toThrow('base32');
});

it.each(VECTORS)('gives RFC 6238 test vector at T=%i s', (seconds, code) => {
  expect(totpCode(RFC_SEED_BASE32, seconds * 1000, 8)).toBe(code);
});

it('gives six digits by default, the last six of the eight, the same within a 30-second step', () => {
  expect(totpCode(RFC_SEED_BASE32, 59_000)).toBe('287082');
  expect(totpCode(RFC_SEED_BASE32, 30_000)).toBe(totpCode(RFC_SEED_BASE32, 59_999));
  expect(totpCode(RFC_SEED_BASE32, 1111111109_000)).toBe('081804');
});
