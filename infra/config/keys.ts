import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { masterKey, type Keyring } from '../../core/keys.ts';
import { ConfigError, type Env } from './parsers.ts';
import type { AppEnv } from './types.ts';

/** The variables that hold secret keys: given only to processes that use them (not ingest, not migrate). */
export const SECRET_KEY_VARIABLES = ['SECRET_KEY', 'SECRET_KEY_PREVIOUS', 'S3_SECRET_ACCESS_KEY'];

function base64Key(name: string, raw: string): Buffer {
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError(name, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}

export function loadKeyring(env: Env, appEnv: AppEnv, stateDir: string): Keyring {
  const current = masterKey(secretKey(env, appEnv, stateDir));
  const previousRaw = env.SECRET_KEY_PREVIOUS?.trim();
  const previous = previousRaw ? masterKey(base64Key('SECRET_KEY_PREVIOUS', previousRaw)) : null;
  return { current, previous: previous && previous.id !== current.id ? previous : null };
}

function secretKey(env: Env, appEnv: AppEnv, stateDir: string): Buffer {
  const raw = env.SECRET_KEY?.trim();
  if (raw) return base64Key('SECRET_KEY', raw);
  if (appEnv === 'production')
    throw new ConfigError('SECRET_KEY', 'is required in production (openssl rand -base64 32)');
  // Development and tests: one key per state folder, made on first start, so stored secrets survive restarts.
  const file = resolve(stateDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new ConfigError('SECRET_KEY', `file ${file} does not hold a 32-byte base64 key`);
  return key;
}
