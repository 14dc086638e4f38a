import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import type { BackingService } from '../../stack/stack.ts';

/** What global setup hands to every test file (jest workers are separate processes, so it goes through a file). */
export interface HarnessInfo {
  templateDatabase: string;
  workflowBundlePath: string;
  startedServices: BackingService[];
}

export const HARNESS_DIR = resolve(PROJECT_ROOT, '.state', 'test');
export const HARNESS_FILE = resolve(HARNESS_DIR, 'harness.json');

export function harnessInfo(): HarnessInfo {
  return JSON.parse(readFileSync(HARNESS_FILE, 'utf8')) as HarnessInfo;
}

/** The environment every test process starts from: the developer's own, in test mode. */
export function baseTestEnv(): Record<string, string | undefined> {
  return {
    ...process.env,
    APP_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    CALLBACKS_ALLOW_LOOPBACK: 'true',
  };
}
