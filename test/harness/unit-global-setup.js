// The unit lane's workflow tests run the project's workflow bundle; it is built once per jest run here (in a
// child Node process: jest's global-setup loader does not handle nested TypeScript ESM imports) instead of
// once in each file. test/unit/workflows/bundle.ts reads it, and bundles itself when this did not run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function unitGlobalSetup() {
  const out = fileURLToPath(new URL(`../../.state/test/unit-workflow-bundle-${process.pid}.js`, import.meta.url));
  const script = fileURLToPath(new URL('../../worker/build-bundle.ts', import.meta.url));
  const result = spawnSync(process.execPath, [script, out], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0)
    throw new Error(`building the workflow bundle failed (exit ${result.status ?? result.signal})`);
  process.env.WEBPERF_UNIT_WORKFLOW_BUNDLE = out;
}
