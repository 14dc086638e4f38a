import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundle } from '@temporalio/worker';
import { PROJECT_ROOT } from '../../../infra/config.ts';

/** The project's workflows (workflows/index.ts) bundled: the lane's one bundle (test/harness/unit-global-setup.js), else a fresh one. */
export async function workflowBundle(): Promise<WorkflowBundle> {
  const built = process.env.WEBPERF_UNIT_WORKFLOW_BUNDLE;
  if (built) return { code: readFileSync(built, 'utf8') };
  return bundleWorkflowCode({
    workflowsPath: resolve(PROJECT_ROOT, 'workflows/index.ts'),
    logger: new DefaultLogger('WARN'),
  });
}
