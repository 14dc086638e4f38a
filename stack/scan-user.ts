import { chmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PROJECT_ROOT } from '../infra/config.ts';
import { lookupUser } from '../infra/scan-user.ts';
import { run } from './proc.ts';

/**
 * The unprivileged system user a root worker runs scan browsers as (infra/scan-user.ts), created when
 * missing. Idempotent; nothing to do when we are not root (the worker then runs scans as itself).
 */
export function ensureScanUser(name: string, log: (msg: string) => void): void {
  if (process.getuid?.() !== 0) return;
  if (!lookupUser(name)) {
    run('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      name,
    ]);
    log(`created the system user ${name}, which runs the scan browsers`);
  }
  allowTraversalTo(PROJECT_ROOT, log);
}

/**
 * The scan user runs the runner from this checkout, so it must be able to pass through the checkout's own
 * folder and the folders above it. A checkout in or under a private folder (e.g. /root, or a clone into a
 * `mktemp -d` folder, mode 700) gets the traverse bit for others on each such folder: enough to reach the
 * checkout's files, not to list or read anything else in the folders above.
 */
export function allowTraversalTo(path: string, log: (msg: string) => void): void {
  for (let dir = path; ; dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, (mode & 0o7777) | 0o001);
      log(`allowed others to traverse ${dir} (not to list it), so the scan user reaches ${path}`);
    }
    if (dir === dirname(dir)) return;
  }
}
