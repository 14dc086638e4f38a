import { existsSync } from 'node:fs';
import { aptInstall } from './proc.ts';

export const PROMTOOL = '/usr/bin/promtool';

/** Debian's prometheus package (it brings promtool); installed when missing, never started as a system service. */
export function ensurePrometheusPackage(log: (message: string) => void): string {
  if (!existsSync(PROMTOOL)) aptInstall(['prometheus'], log);
  return PROMTOOL;
}
