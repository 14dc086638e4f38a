import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function globalTeardown() {
  // Under `./svc test` the stack is stopped once, after both parts of the lane (test/harness/lanes.js).
  if (process.env.WEBPERF_HARNESS_READY !== '1') {
    const script = fileURLToPath(new URL('./stack-setup.ts', import.meta.url));
    const result = spawnSync(process.execPath, [script, 'down'], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`test stack teardown failed (exit ${result.status ?? result.signal})`);
  }
  // A secret in any log line collected during the run fails the run (test/harness/log-sink.ts), whichever file it was in.
  const leaks = fileURLToPath(new URL('../../.state/test/log-leaks.jsonl', import.meta.url));
  if (existsSync(leaks) && readFileSync(leaks, 'utf8').trim()) {
    throw new Error(
      `secrets appeared in log lines during the run (${leaks}):\n${readFileSync(leaks, 'utf8').slice(0, 4000)}`,
    );
  }
}
