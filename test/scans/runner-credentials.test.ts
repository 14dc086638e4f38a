import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  runnerEnvironment,
  type RunnerInput,
  type RunnerLaunch,
  type RunnerMessage,
} from '../../activities/lighthouse/protocol.ts';
import { loadConfig, PROJECT_ROOT } from '../../infra/config.ts';
import { startFixtureSites, HEADER_NAME, type FixtureSites } from '../../fixtures/sites.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * The runner on its own, fed through its stdin protocol as the scan activity feeds it, with credentials the
 * API now refuses (so only the runner's own handling is under test): Chromium refuses the header, and the
 * paused request must be released, not left waiting until Lighthouse gives up on the page.
 */
let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
});
afterAll(async () => {
  await sites.close();
});

function runRunner(input: RunnerInput): Promise<{ code: number | null; messages: RunnerMessage[]; stderr: string }> {
  const workDir = mkdtempSync(join(tmpdir(), 'webperf-scan-test-'));
  const launch: RunnerLaunch = { chromiumPath: loadConfig(baseTestEnv()).chromiumPath, allowLoopback: true };
  const child = spawn(
    process.execPath,
    [resolve(PROJECT_ROOT, 'activities/lighthouse/runner.ts'), workDir, JSON.stringify(launch)],
    { stdio: ['pipe', 'pipe', 'pipe'], env: runnerEnvironment(workDir), cwd: workDir },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify(input satisfies RunnerInput));
  return new Promise((resolveRun) =>
    child.on('exit', (code) => {
      rmSync(workDir, { recursive: true, force: true });
      resolveRun({
        code,
        messages: stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as RunnerMessage),
        stderr,
      });
    }),
  );
}

it('fails the scan at once when Chromium refuses the credential header, instead of leaving the request paused', async () => {
  const { code, messages, stderr } = await runRunner({
    publicId: 'runnercredentialstest00000',
    url: `${sites.origin}/header/`,
    credentials: { type: 'header', header_name: HEADER_NAME, header_value: 'secret\r\nX-Injected: 1' },
    formFactors: ['desktop', 'mobile'],
  });
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  // A request left paused held the page load: without the fix the runner had not ended after 3 minutes.
  expect(messages.at(-1)).toEqual({
    kind: 'page_failure',
    code: 'scan_error',
    detail: 'The credentials could not be added to the requests for the page.',
  });
  expect(sites.siteRequests.filter((r) => r.path.startsWith('/header/'))).toEqual([]);
}, 180_000);
