import { lookupUser } from '../core/scan-user.ts';
import { run } from './proc.ts';

/**
 * The unprivileged system user a root worker runs scan browsers as (core/scan-user.ts), created when
 * missing. Idempotent; nothing to do when we are not root (the worker then runs scans as itself).
 */
export function ensureScanUser(name: string, log: (msg: string) => void): void {
  if (process.getuid?.() !== 0 || lookupUser(name)) return;
  run('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name]);
  log(`created the system user ${name}, which runs the scan browsers`);
}
