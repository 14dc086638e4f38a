import type { Keyring } from '../keys.ts';
import { SecretSet } from '../redaction.ts';
import { decryptSecret, encryptSecret } from '../secrets.ts';

/**
 * The credentials of an authenticated scan, as the API accepts them, the database keeps them (encrypted,
 * until the scan ends), the worker decrypts them and the runner adds them to the scanned origin's requests.
 */
export type ScanCredentials =
  { type: 'basic'; username: string; password: string } | { type: 'header'; header_name: string; header_value: string };

/** Bound to the scan as associated data: a ciphertext copied into another scan's row does not decrypt. */
const context = (publicId: string): string => `scan-credentials:${publicId}`;

export function encryptScanCredentials(keys: Keyring, publicId: string, credentials: ScanCredentials): string {
  return encryptSecret(keys, 'scan-credentials', JSON.stringify(credentials), context(publicId));
}

export function decryptScanCredentials(keys: Keyring, publicId: string, stored: string): ScanCredentials {
  return JSON.parse(decryptSecret(keys, 'scan-credentials', stored, context(publicId))) as ScanCredentials;
}

/**
 * What of a scan's credentials is secret, for the redaction rule (core/redaction.ts): the password and basic
 * auth's base64 token (the Authorization header's), or the header value. The user name and the header name are not.
 */
export function credentialSecrets(credentials: ScanCredentials | null): SecretSet {
  if (!credentials) return new SecretSet([]);
  if (credentials.type === 'header') return new SecretSet([credentials.header_value]);
  const token = Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64');
  return new SecretSet([credentials.password, token]);
}
