import type { FlowSecretKind } from '../core/flows/flow.ts';
import { encryptFlowSecret } from '../core/flows/secrets.ts';
import type { Flow, FlowSecretInfo } from '../db/store/flows.ts';
import { invalid, type FlowFailureOutcome, type FlowServiceDeps, type Owner } from './flow-service.ts';

/** A secret as the owner sets it; stored encrypted, never given out again (docs/flows.md). */
export interface SecretInput {
  kind: FlowSecretKind;
  value: string;
}

export function secretProblems(secrets: Record<string, SecretInput>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [name, secret] of Object.entries(secrets)) {
    const problem = secretValueProblem(secret);
    if (problem) errors[`secrets.${name}.value`] = [problem];
  }
  return errors;
}

/** A TOTP seed is base32 (RFC 4648, spaces and padding allowed) of at least 80 bits; a password anything not empty. */
export function secretValueProblem(secret: SecretInput): string | null {
  if (secret.kind !== 'totp') return null;
  const seed = secret.value.replace(/[\s=]/g, '');
  return /^[A-Za-z2-7]{16,}$/.test(seed)
    ? null
    : 'A TOTP secret must be the base32 seed (at least 16 characters A–Z, 2–7).';
}

export async function setFlowSecret(
  deps: FlowServiceDeps,
  owner: Owner,
  publicId: string,
  name: string,
  secret: SecretInput,
): Promise<{ kind: 'ok'; flow: Flow; secrets: FlowSecretInfo[]; created: boolean } | FlowFailureOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  const problem = secretValueProblem(secret);
  if (problem) return invalid('value', problem);
  const created = await deps.flows.putSecret(
    flow.id,
    { name, kind: secret.kind, valueEncrypted: encryptFlowSecret(deps.config.keys, flow.publicId, name, secret.value) },
    deps.clock(),
  );
  return { kind: 'ok', flow, secrets: await deps.flows.secrets(flow.id), created };
}

export async function deleteFlowSecret(
  deps: FlowServiceDeps,
  owner: Owner,
  publicId: string,
  name: string,
): Promise<{ kind: 'ok' } | FlowFailureOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  return (await deps.flows.deleteSecret(flow.id, name)) ? { kind: 'ok' } : { kind: 'not_found' };
}
