import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { HARNESS_DIR } from './shared.ts';

/**
 * The suite-wide check that no secret reaches a log line. Every log the harness collects (the in-process
 * API's and workers' loggers, the output of every api/worker/ingest process it starts) is inspected when its
 * owner closes, and at the end of each test file for anything still open. A finding fails that file and is
 * written to LEAKS_FILE, which the global teardown turns into a failed run.
 *
 * Secrets are recognised two ways: by their form (our API tokens, webhook signing secrets, credentials in
 * Authorization headers, session cookies), and by value, for the ones the harness hands out or sends: test
 * users' tokens and passwords, passwords and header values posted through the web client or the API
 * (scan credentials, webhook headers), OAuth codes and tokens the harness obtains.
 */
export const LEAKS_FILE = resolve(HARNESS_DIR, 'log-leaks.jsonl');

export const SECRET_FORMS: ReadonlyArray<readonly [kind: string, pattern: RegExp]> = [
  ['API token', /wpt_[A-Za-z0-9_-]{16,}/],
  ['webhook signing secret', /whsec_[A-Za-z0-9+/]{16,}/],
  ['bearer credential', /\bBearer\s+[A-Za-z0-9._~+/-]{12,}/i],
  ['basic credential', /\bBasic\s+[A-Za-z0-9+/]{8,}={0,2}/],
  ['session cookie', /wps_(?:pre)?session=[^;\s"[]{8,}/],
];

/** Shorter values are too likely to occur by chance (a port, a word) to be told apart from a leak. */
const MIN_SECRET_LENGTH = 6;
const known = new Set<string>();

export function registerSecret(value: unknown): void {
  if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) known.add(value);
}

const SECRET_KEY = /password|secret|header_value|token/i;

/** A flow step's `secret` names a secret (`"password"`); the value is set elsewhere and registered there. */
const SECRET_REFERENCE_KEY = 'secret';

/** Registers every string under a key that names a secret (password, header_value, token, ...), at any depth. */
export function registerSecretsIn(value: unknown, key = ''): void {
  if (typeof value === 'string') {
    if (SECRET_KEY.test(key) && key !== SECRET_REFERENCE_KEY) registerSecret(value);
  } else if (Array.isArray(value)) {
    for (const item of value) registerSecretsIn(item, key);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) registerSecretsIn(v, k);
  }
}

export interface Leak {
  kind: string;
  /** The line with the secret replaced, so the report does not repeat it. */
  line: string;
}

export function secretsIn(text: string): Leak[] {
  const leaks: Leak[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    for (const [kind, pattern] of SECRET_FORMS) {
      if (pattern.test(line)) leaks.push({ kind, line: line.replace(new RegExp(pattern, 'g'), `[${kind}]`) });
    }
    for (const secret of known) {
      if (line.includes(secret)) leaks.push({ kind: 'known secret', line: line.split(secret).join('[known secret]') });
    }
  }
  return leaks;
}

const open = new Map<number, { source: string; read: () => string }>();
let nextId = 1;

function report(source: string, leaks: Leak[]): void {
  if (leaks.length === 0) return;
  mkdirSync(HARNESS_DIR, { recursive: true });
  const file = typeof expect === 'undefined' ? 'unknown' : basename(expect.getState().testPath ?? 'unknown');
  for (const leak of leaks)
    appendFileSync(LEAKS_FILE, `${JSON.stringify({ file, source, ...leak, line: leak.line.slice(0, 2000) })}\n`);
  throw new Error(
    `secret in the logs of ${source}: ${leaks.map((l) => `${l.kind}: ${l.line.slice(0, 300)}`).join('\n')}`,
  );
}

/** Watches one log source until `check()`, which inspects everything it logged (and throws on a secret). */
export function watchLogs(source: string, read: () => string): { check(): void } {
  const id = nextId++;
  open.set(id, { source, read });
  return {
    check() {
      open.delete(id);
      report(source, secretsIn(read()));
    },
  };
}

/** For the end of a test file: inspects the sources nobody closed. */
export function checkOpenLogs(): void {
  const pending = [...open.values()];
  open.clear();
  const leaks = pending.flatMap(({ source, read }) => secretsIn(read()).map((leak) => ({ ...leak, source })));
  for (const { source } of pending)
    report(
      source,
      leaks.filter((l) => l.source === source),
    );
}
