import type { Keyring } from '../keys.ts';
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
