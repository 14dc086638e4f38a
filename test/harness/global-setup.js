// Jest's global-setup loader does not handle nested TypeScript ESM imports, so the real work runs in a
// child Node process (the same pinned Node that runs jest): test/harness/stack-setup.ts.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function globalSetup() {
  // `./svc test` prepares the stack once and then runs the lane's two parts side by side (test/harness/lanes.js).
  if (process.env.WEBPERF_HARNESS_READY === '1') return;
  // The log sink's findings (test/harness/log-sink.ts) are for this run only.
  rmSync(fileURLToPath(new URL('../../.state/test/log-leaks.jsonl', import.meta.url)), { force: true });
  const script = fileURLToPath(new URL('./stack-setup.ts', import.meta.url));
  const result = spawnSync(process.execPath, [script, 'up'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`test stack setup failed (exit ${result.status ?? result.signal})`);
}
