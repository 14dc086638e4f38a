import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { lookupUser } from '../../infra/scan-user.ts';
import { allowTraversalTo } from '../../stack/scan-user.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * A checkout cloned into a private folder (`mktemp -d`, mode 700) must still be reachable by the scan user,
 * who runs the runner from it: its own folder and those above get the traverse bit for others, nothing more.
 */
const scanUser = lookupUser(loadConfig(baseTestEnv()).scanUser);
const asScanUser = (script: string) =>
  spawnSync(process.execPath, ['--check', script], { uid: scanUser!.uid, gid: scanUser!.gid, encoding: 'utf8' });

it('gives a private checkout folder and the private folder above it the traverse bit only', () => {
  const outer = mkdtempSync(join(tmpdir(), 'scan-user-'));
  try {
    const checkout = join(outer, 'checkout');
    mkdirSync(checkout, { mode: 0o700 });
    chmodSync(outer, 0o700);
    const script = join(checkout, 'runner.js');
    writeFileSync(script, 'export {};\n', { mode: 0o644 });
    const canRunBefore = process.getuid?.() === 0 && scanUser ? asScanUser(script).status : null;

    allowTraversalTo(checkout, () => undefined);

    expect(statSync(checkout).mode & 0o777).toBe(0o701);
    expect(statSync(outer).mode & 0o777).toBe(0o701);
    // The real check, where the tests run as root with the scan user (as the worker would run it).
    if (canRunBefore !== null) {
      expect(canRunBefore).not.toBe(0);
      expect(asScanUser(script).status).toBe(0);
    }
  } finally {
    rmSync(outer, { recursive: true, force: true });
  }
});
