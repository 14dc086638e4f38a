import { spawnSync } from 'node:child_process';

export interface UserIds {
  uid: number;
  gid: number;
}

/** A user's ids from the system's user database (getent: /etc/passwd or whatever NSS serves); null if unknown. */
export function lookupUser(name: string): UserIds | null {
  const result = spawnSync('getent', ['passwd', '--', name], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  const [, , uid, gid] = result.stdout.trim().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Who a scan's runner (and its Chromium) runs as. A worker running as root hands it to `scanUser`
 * (SCAN_USER), an unprivileged system user that can neither read the worker's environment
 * (/proc/PID/environ) nor signal it, and under which Chromium's sandbox works. A worker running as anyone
 * else cannot switch users: the runner runs as the worker's user (null).
 */
export function runnerIdentity(scanUser: string, workerUid: number | undefined = process.getuid?.()): UserIds | null {
  if (workerUid !== 0) return null;
  const ids = lookupUser(scanUser);
  if (!ids) {
    throw new Error(
      `the worker runs as root, so scans run as the user ${scanUser} (SCAN_USER), which does not exist: ./svc start and ./svc test create it, or run: useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin ${scanUser}`,
    );
  }
  if (ids.uid === 0 || ids.gid === 0)
    throw new Error(`SCAN_USER ${scanUser} has uid or gid 0; scans need an unprivileged user`);
  return ids;
}
