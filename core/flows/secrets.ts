import type { Keyring } from '../keys.ts';
import { decryptSecret, encryptSecret } from '../secrets.ts';

/**
 * A flow's secret values (passwords, TOTP seeds) at rest: encrypted with the `flow-secrets` key, bound to the
 * flow and the secret's name as associated data, so a ciphertext copied into another flow's or another
 * name's row does not decrypt. Decrypted only by the flow-run activity, right before the runner gets them.
 */
const context = (flowPublicId: string, name: string): string => `flow-secret:${flowPublicId}:${name}`;

export function encryptFlowSecret(keys: Keyring, flowPublicId: string, name: string, value: string): string {
  return encryptSecret(keys, 'flow-secrets', value, context(flowPublicId, name));
}

export function decryptFlowSecret(keys: Keyring, flowPublicId: string, name: string, stored: string): string {
  return decryptSecret(keys, 'flow-secrets', stored, context(flowPublicId, name));
}
