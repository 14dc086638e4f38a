import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function globalTeardown() {
  const script = fileURLToPath(new URL('./stack-setup.ts', import.meta.url));
  const result = spawnSync(process.execPath, [script, 'down'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`test stack teardown failed (exit ${result.status ?? result.signal})`);
}
