import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runnerEnvironment, type RunnerLaunch } from '../../activities/lighthouse/protocol.ts';
import type { FlowRunInput } from '../../core/flows/flow.ts';

/**
 * A flow runner script (the real one or the replay) started and fed as the worker starts and feeds it, in a work
 * folder of its own that is removed after: its exit code and every byte of its stdout and stderr.
 */
export async function runFlowRunnerScript(
  script: string,
  launch: RunnerLaunch,
  input: FlowRunInput,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const workDir = mkdtempSync(join(tmpdir(), 'webperf-flow-runner-test-'));
  const child = spawn(process.execPath, [script, workDir, JSON.stringify(launch)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: runnerEnvironment(workDir),
    cwd: workDir,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify(input));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  rmSync(workDir, { recursive: true, force: true });
  return { code, stdout, stderr };
}
