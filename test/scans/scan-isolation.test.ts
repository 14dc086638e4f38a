import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';

/**
 * What a scanned page could get at if it took over the browser: the network only through the egress proxy
 * (no WebRTC UDP around it), no secrets in any environment it can read, and a sandboxed renderer.
 */
const CANARY = `canary-${randomBytes(12).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('base64');
let stack: ScanStack;
let sites: FixtureSites;
let token: string;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ env: { SECRET_KEY, WEBPERF_TEST_CANARY: CANARY } });
  ({ token } = await createTestUser(stack.api, 'pro'));
}, 120_000);
afterAll(async () => {
  await stack.close();
  await sites.close();
});

async function startScan(url: string): Promise<string> {
  const created = await call(stack.api, '/scans', { token, method: 'POST', body: { url } });
  expect(created.status).toBe(202);
  return (created.body.data as { id: string }).id;
}

/** The machine's own non-loopback IPv4 address: private or special-use, so no scan may reach it. */
function ownAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!address) throw new Error('this test needs a non-loopback IPv4 interface');
  return address;
}

it('sends no WebRTC UDP around the egress proxy: a STUN/TURN server on an internal address receives nothing', async () => {
  const host = ownAddress();
  const listener: Socket = createSocket('udp4');
  const datagrams: Array<{ from: string; bytes: number }> = [];
  listener.on('message', (message, from) => datagrams.push({ from: from.address, bytes: message.length }));
  const port = await new Promise<number>((resolveBind) =>
    listener.bind(0, host, () => resolveBind(listener.address().port)),
  );
  try {
    const id = await startScan(`${sites.origin}/webrtc/?to=${host}:${port}`);
    const scan = await waitForScan(stack.api, token, id);
    expect(scan.status).toBe('finished');
    // The page did open its peer connection and start gathering (desktop and mobile).
    expect(sites.siteRequests.filter((r) => r.path === '/webrtc/state?s=offer-set').length).toBeGreaterThanOrEqual(2);
    expect(datagrams).toEqual([]);
  } finally {
    listener.close();
  }
}, 300_000);

function processStatus(pid: number): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  return fields;
}

/** Every process below `root` (by parent pid), read from /proc; processes that exit meanwhile are skipped. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(processStatus(Number(entry)).PPid));
    } catch {
      /* gone */
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8');

it("keeps the service's secrets out of the runner's and Chromium's reach, and runs renderers in Chromium's sandbox", async () => {
  const id = await startScan(`${sites.origin}/hold/`);
  const workerPid = stack.worker.child.pid!;
  expect(environ(workerPid)).toContain(CANARY); // the canary is there to be found

  let runner = 0;
  let browserProcesses: number[] = [];
  let renderers: number[] = [];
  await waitUntil(
    'a runner whose page is loading',
    async () => {
      runner = descendants(workerPid).find((pid) => cmdline(pid).includes('lighthouse/runner.ts')) ?? 0;
      if (!runner) return false;
      browserProcesses = descendants(runner);
      renderers = browserProcesses.filter((pid) => cmdline(pid).includes('--type=renderer'));
      return renderers.length > 0 && sites.siteRequests.some((r) => r.path === '/hold/image.svg');
    },
    90_000,
    100,
  );
  // Snapshot while the page is held open, then let it finish.
  const environments = [runner, ...browserProcesses].map((pid) => ({
    pid,
    command: cmdline(pid).slice(0, 80),
    environ: environ(pid),
  }));
  const runnerStatus = processStatus(runner);
  const rendererSeccomp = renderers.map((pid) => processStatus(pid).Seccomp);
  const profile = browserProcesses.map((pid) => /--user-data-dir=(\S+)/.exec(cmdline(pid))?.[1]).find(Boolean);
  const [uid, gid] = [Number(runnerStatus.Uid!.split(/\s+/)[0]), Number(runnerStatus.Gid!.split(/\s+/)[0])];
  const asRunner =
    process.getuid?.() === 0 ? spawnSync('cat', [`/proc/${workerPid}/environ`], { uid, gid, encoding: 'utf8' }) : null;
  sites.releaseHold();

  for (const { pid, command, environ: env } of environments) {
    expect({
      pid,
      command,
      canary: env.includes(CANARY),
      secretKey: env.includes(SECRET_KEY),
      databaseUrl: env.includes('DATABASE_URL='),
    }).toEqual({ pid, command, canary: false, secretKey: false, databaseUrl: false });
  }
  const runnerVariables = environments[0]!.environ
    .split('\0')
    .filter(Boolean)
    .map((v) => v.slice(0, v.indexOf('=')));
  expect(runnerVariables.sort()).toEqual(['HOME', 'LANG', 'PATH', 'TMPDIR']);
  expect(rendererSeccomp.length).toBeGreaterThan(0);
  expect(rendererSeccomp.every((mode) => mode === '2')).toBe(true);
  if (asRunner) {
    // The worker runs as root here, so the runner must have been switched to an unprivileged user.
    expect(uid).not.toBe(0);
    expect(asRunner.status).not.toBe(0);
    expect(asRunner.stdout).not.toContain(CANARY);
    expect(asRunner.stderr).toMatch(/Permission denied/);
  }

  const scan = await waitForScan(stack.api, token, id);
  expect(scan.status).toBe('finished');
  // The images went through the worker into the asset store, which the runner's user cannot write.
  const screenshots = (scan.result as { screenshots: { desktop_url: string | null; mobile_url: string | null } })
    .screenshots;
  expect(screenshots.desktop_url).not.toBeNull();
  const shot = await fetch(screenshots.desktop_url!);
  expect(shot.status).toBe(200);
  expect(shot.headers.get('content-type')).toMatch(/image\/jpeg/);
  // The runner's working folder (profile, Chromium's temporary files) is gone.
  expect(profile).toBeDefined();
  expect(existsSync(profile!)).toBe(false);
}, 300_000);
