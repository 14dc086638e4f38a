import { hkdfSync } from 'node:crypto';

/**
 * One SECRET_KEY, several uses, each with a key of its own derived by HKDF-SHA256: a value made for one
 * purpose (an image URL's signature) is worthless for another (scan credentials). Whatever is encrypted
 * or signed records the id of the master key it was made with, so SECRET_KEY can be rotated: the new key
 * encrypts and signs, the previous one (SECRET_KEY_PREVIOUS) still decrypts and verifies until removed.
 */
export type KeyPurpose =
  | 'scan-credentials'
  | 'flow-secrets'
  | 'webhook-header'
  | 'webhook-signing'
  | 'alert-destination-url'
  | 'image-url'
  | 'csrf'
  | 'device-cookie'
  | 'oauth-cookies'
  | 'new-token-cookie';

export interface MasterKey {
  /** A fingerprint (8 characters, base64url), safe to store and show: it reveals nothing of the key. */
  id: string;
  secret: Buffer;
}

export interface Keyring {
  current: MasterKey;
  previous: MasterKey | null;
}

const SALT = Buffer.from('webperf key derivation v1');

const derive = (secret: Buffer, info: string, length: number): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, SALT, info, length));

export function masterKey(secret: Buffer): MasterKey {
  return { id: derive(secret, 'key-id', 6).toString('base64url'), secret };
}

/** The key for one purpose. */
export function purposeKey(master: MasterKey, purpose: KeyPurpose): Buffer {
  return derive(master.secret, `purpose:${purpose}`, 32);
}

/** The current key first, then the previous one: the order in which to try them. */
export const keysOf = (ring: Keyring): MasterKey[] => (ring.previous ? [ring.current, ring.previous] : [ring.current]);

export const keyWithId = (ring: Keyring, id: string): MasterKey | undefined =>
  keysOf(ring).find((key) => key.id === id);
