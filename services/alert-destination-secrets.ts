import type { Keyring } from '../core/keys.ts';
import { decryptSecret, encryptSecret } from '../core/secrets.ts';
import type { StoredAlertDestination } from '../db/store/alert-destinations.ts';

/**
 * A Slack or Teams URL is a credential (whoever has it can post to the channel): encrypted at rest with its
 * own purpose key and bound to its owner (a ciphertext copied into another user's row does not decrypt).
 * Opened only to send; never shown or logged.
 */
const context = (userId: number) => `alert-destination-url:${userId}`;

export const sealDestinationUrl = (keys: Keyring, userId: number, url: string): string =>
  encryptSecret(keys, 'alert-destination-url', url, context(userId));

export const openDestinationUrl = (
  keys: Keyring,
  destination: Pick<StoredAlertDestination, 'userId' | 'urlEncrypted'>,
): string => decryptSecret(keys, 'alert-destination-url', destination.urlEncrypted, context(destination.userId));
