/**
 * What a flow runner process writes (flow-runner-process.ts, and fixtures/flow-replay-runner.ts, which replays
 * recorded runs): FlowRunnerMessage lines on stdout, and stderr, every string through scrubFlowSecrets with the
 * run's secrets and what was typed that is not one (TOTP codes). One run per process, so one set of secrets.
 */
import type { FlowRunInput } from '../../core/flows/flow.ts';
import { scrubFlowSecrets } from '../../core/flows/secret-scrub.ts';
import type { FlowRunnerMessage } from './flow-protocol.ts';

let secrets: FlowRunInput['secrets'] = {};
const typed: string[] = [];

export const scrub = <T>(value: T): T => scrubFlowSecrets(value, secrets, typed);

/** A value typed that is not a stored secret (a TOTP code): scrubbed from here on, before it is typed. */
export const noteTyped = (value: string): void => void typed.push(value);

/**
 * The run's secrets, once its input has come: from here on whatever else writes to stderr (Lighthouse's log,
 * Node's warnings) is scrubbed too, line by line as written.
 */
export function scrubWithSecretsOf(input: FlowRunInput): void {
  secrets = input.secrets ?? {};
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
    write(
      scrub(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()),
      ...(rest as []),
    )) as typeof process.stderr.write;
}

export function send(message: FlowRunnerMessage): void {
  // An image's bytes are not text a secret could be in (and scrubbing base64 could break them).
  const safe = message.kind === 'image' ? { ...message, name: scrub(message.name) } : scrub(message);
  process.stdout.write(`${JSON.stringify(safe)}\n`);
}
