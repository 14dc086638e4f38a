/** The environment's variables, as process.env holds them. */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.variable = variable;
  }
}

export function str(env: Env, name: string, fallback: string | undefined): string {
  const value = env[name]?.trim();
  if (value) return value;
  if (fallback === undefined) throw new ConfigError(name, 'is required');
  return fallback;
}

export function port(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ConfigError(name, `must be a TCP port (1-65535), got "${raw}"`);
  }
  return Number(raw);
}

export function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string {
  const value = str(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${value}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return value.replace(/\/+$/, '');
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** host:port, as Temporal's clients take it (no scheme). */
export function hostPort(env: Env, name: string, fallback: string | undefined): string {
  const value = str(env, name, fallback);
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535)
    throw new ConfigError(name, `must be host:port (for example 127.0.0.1:7233), got "${value}"`);
  return value;
}

export function identifier(env: Env, name: string, fallback: string): string {
  const value = str(env, name, fallback);
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(value))
    throw new ConfigError(name, `must be a plain identifier, got "${value}"`);
  return value;
}

export function userName(env: Env, name: string, fallback: string): string {
  const value = str(env, name, fallback);
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(value))
    throw new ConfigError(name, `must be a system user name (lower-case letters, digits, - and _), got "${value}"`);
  return value;
}

export function wholeNumber(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > max)
    throw new ConfigError(name, `must be a whole number from 0 to ${max}, got "${raw}"`);
  return Number(raw);
}

export function atLeastOne(env: Env, name: string, fallback: number, max: number): number {
  const value = wholeNumber(env, name, fallback, max);
  if (value < 1) throw new ConfigError(name, `must be at least 1, got "${value}"`);
  return value;
}
