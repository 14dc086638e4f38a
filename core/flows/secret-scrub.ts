import { redactSecrets, REDACTED, SecretSet } from '../redaction.ts';
import type { FlowSecretValue } from './flow.ts';

export { REDACTED };

/** A flow run's secrets for the redaction rule: its stored values and what was typed that is not one (TOTP codes). */
export const flowSecretSet = (secrets: Record<string, FlowSecretValue>, typed: readonly string[] = []): SecretSet =>
  new SecretSet([...Object.values(secrets).map((s) => s.value), ...typed]);

/**
 * Every string a flow run hands out (its messages, the outcome, error texts, image names, stderr) goes
 * through this: every run of a secret, in any encoding a page or a URL may give it (core/redaction.ts),
 * replaced by REDACTED. Walks parsed values, so JSON stays valid; a string comes back a string.
 */
export function scrubFlowSecrets<T>(
  value: T,
  secrets: Record<string, FlowSecretValue>,
  typed: readonly string[] = [],
): T {
  return redactSecrets(value, flowSecretSet(secrets, typed));
}
