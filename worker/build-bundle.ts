import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { PROJECT_ROOT } from '../infra/config.ts';

/** Production workers load this prebuilt bundle (WORKFLOW_BUNDLE_PATH) instead of bundling at start. */
export async function buildWorkflowBundle(outFile: string): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: resolve(PROJECT_ROOT, 'workflows/index.ts'),
    logger: new DefaultLogger('WARN'),
  });
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, code);
  return outFile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = resolve(process.argv[2] ?? resolve(PROJECT_ROOT, 'dist/workflow-bundle.js'));
  await buildWorkflowBundle(out);
  console.log(`workflow bundle written to ${out}`);
}
