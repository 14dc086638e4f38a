import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';

/**
 * The client package's `bin`, run the way a user runs it from a checkout of the repository: `npx webperf …` or
 * `npm exec webperf -- …` in the repository root, after `npm install` (which links the workspace's bin into
 * node_modules/.bin), with node_modules/.bin on PATH. npm finds the local bin and needs no network: the registry
 * is pointed at a closed port and the cache at an empty folder, so any attempt to download would fail the test.
 */
const scratch = mkdtempSync(join(tmpdir(), 'webperf-bin-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(PROJECT_ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_cache: join(scratch, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
  delete env.WEBPERF_URL;
  delete env.WEBPERF_TOKEN;
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

it.each([
  ['npx', ['webperf', '--help']],
  ['npm', ['exec', 'webperf', '--', '--help']],
])('%s %j from the repository root prints the usage and exits 0, offline', async (command, args) => {
  const help = await run(command, args);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^Usage:\n {2}webperf scan URL /);
  expect(help.stdout).toContain('Exit codes: 0 budgets hold');
  expect(help.stderr).not.toMatch(/ERR!|webperf:/);
});

it('npx webperf without a command is a usage error: usage on stderr, nothing on stdout, exit 2', async () => {
  const bare = await run('npx', ['webperf']);
  expect(bare.code).toBe(2);
  expect(bare.stdout).toBe('');
  expect(bare.stderr).toContain('Usage:\n  webperf scan URL');
});

it('npx webperf runs the command itself: without WEBPERF_TOKEN it says so in one line (no usage text) and exits 2', async () => {
  const targets = await run('npx', ['webperf', 'targets']);
  expect(targets.code).toBe(2);
  expect(targets.stdout).toBe('');
  expect(targets.stderr).toMatch(/^webperf: WEBPERF_TOKEN is not set \(create a token on the service's API page\)$/m);
  expect(targets.stderr).not.toContain('Usage:');
});
