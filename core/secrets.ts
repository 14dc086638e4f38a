import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keysOf, keyWithId, purposeKey, type KeyPurpose, type Keyring } from './keys.ts';

/**
 * Secrets at rest (webhook header values, credentials of authenticated scans): AES-256-GCM with the
 * purpose's key (core/keys.ts). Stored as `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url); the context
 * string is bound as associated data, so a value encrypted for one row cannot be replayed into another.
 */
export function encryptSecret(keys: Keyring, purpose: KeyPurpose, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(keys.current, purpose), iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v2',
    keys.current.id,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

export function decryptSecret(keys: Keyring, purpose: KeyPurpose, stored: string, context: string): string {
  const parts = stored.split('.');
  if (parts[0] === 'v2' && parts.length === 5) {
    const [, keyId, iv, tag, data] = parts as [string, string, string, string, string];
    const master = keyWithId(keys, keyId);
    if (!master)
      throw new Error(`secret was encrypted with key ${keyId}, which is neither SECRET_KEY nor SECRET_KEY_PREVIOUS`);
    return open(purposeKey(master, purpose), iv, tag, data, context);
  }
  // v1 (before per-purpose keys): the raw SECRET_KEY. Only credentials of scans queued before the upgrade
  // are stored so, and scans erase them when they end; this branch can go one release later.
  if (parts[0] === 'v1' && parts.length === 4) {
    const [, iv, tag, data] = parts as [string, string, string, string];
    for (const master of keysOf(keys)) {
      try {
        return open(master.secret, iv, tag, data, context);
      } catch {
        // try the next key
      }
    }
    throw new Error('secret (v1) does not decrypt with SECRET_KEY or SECRET_KEY_PREVIOUS');
  }
  throw new Error('unrecognised secret format');
}

function open(key: Buffer, iv: string, tag: string, data: string, context: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
