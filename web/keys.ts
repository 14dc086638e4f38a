import { hkdfSync } from 'node:crypto';

export type WebKeyPurpose = 'csrf' | 'device-cookie';

/**
 * A key for one purpose of the web area, derived from SECRET_KEY (HKDF-SHA256), so a MAC made for one
 * purpose is worthless for another. The one place to swap for a shared per-purpose derivation.
 */
export function webKey(secretKey: Buffer, purpose: WebKeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `webperf web ${purpose} v1`, 32));
}
