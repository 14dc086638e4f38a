import { rmSync } from 'node:fs';

export default function unitGlobalTeardown() {
  if (process.env.WEBPERF_UNIT_WORKFLOW_BUNDLE) rmSync(process.env.WEBPERF_UNIT_WORKFLOW_BUNDLE, { force: true });
}
