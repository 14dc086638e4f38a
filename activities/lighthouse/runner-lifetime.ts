/**
 * The runner process's lifetime: its work folder (made by the worker, named as the runner's one argument),
 * its Chromium (profile and temporary files inside that folder), and leaving nothing behind, however the
 * runner ends, also when its worker goes before the scan comes. The worker kills both process groups and
 * removes the folder too; this covers a worker that died first.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_FLAGS, LIGHTHOUSE_CHROMIUM_FLAGS, sandboxFlags } from '../../core/chromium.ts';
import { startEgressProxy, type EgressProxy } from './egress-proxy.ts';
import { killProcessGroup } from './process-group.ts';
import { sendMessage, type RunnerLaunch } from './protocol.ts';

let browserPid: number | undefined;
let workDir: string | undefined;

/**
 * Chromium first (a browser that outlives us shuts down gracefully and writes its profile while we delete
 * it), then our folder. Synchronous, so it also runs on process exit, however we exit.
 */
export function cleanUp(): void {
  killProcessGroup(browserPid);
  if (workDir) rmSync(workDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

/** A runner whose worker died must not keep Chromium busy: when the parent goes, Chromium and we go. */
function exitWithParent(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) {
      try {
        cleanUp();
        process.kill(-process.pid, 'SIGKILL');
      } finally {
        process.exit(1);
      }
    }
  }, 1000).unref();
}

/**
 * Takes charge of the work folder the worker started us in: from here on, however we exit, it goes, and we
 * go with our worker. Returns the folder.
 */
export function startLifetime(): string {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: runner.ts WORK_FOLDER (the worker starts it; see process-runner.ts)');
  workDir = folder;
  process.once('exit', cleanUp);
  exitWithParent();
  return folder;
}

/**
 * Every request through the egress proxy, loopback included (Chromium bypasses proxies for it by default),
 * and no WebRTC UDP that does not go through a proxy (Chromium has no UDP proxying, so none at all): a
 * page's STUN/TURN servers would otherwise receive datagrams straight from this machine.
 */
const egressFlags = (proxy: EgressProxy) => [
  `--proxy-server=${proxy.url}`,
  '--proxy-bypass-list=<-loopback>',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** Chromium with a fresh profile in `folder` (the work folder), reaching the network only through `proxy`; removed with the folder on exit. */
export async function launchBrowser(chromiumPath: string, folder: string, proxy: EgressProxy): Promise<Browser> {
  // Chromium's own temporary files (shared memory, with --disable-dev-shm-usage) go inside the folder too.
  const chromiumTmp = join(folder, 'tmp');
  mkdirSync(chromiumTmp);
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    args: [
      ...CHROMIUM_FLAGS,
      ...LIGHTHOUSE_CHROMIUM_FLAGS,
      ...sandboxFlags(),
      ...egressFlags(proxy),
      `--user-data-dir=${join(folder, 'user-data')}`,
    ],
    // Our own environment is already the minimal one the worker gave us (protocol.ts).
    env: { ...process.env, TMPDIR: chromiumTmp },
    headless: true,
    pipe: true,
  });
  browserPid = browser.process()?.pid;
  return browser;
}

/** The run's input: JSON on stdin, whole once the worker closes it. */
export async function readInput<T>(): Promise<T> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  if (!text) throw new Error('no input: the worker went away before the run came');
  return JSON.parse(text) as T;
}

/**
 * The egress proxy and Chromium, launched as soon as the runner starts (ahead of its scan: the worker starts
 * the next runner when a run ends), so a scan does not wait for them. Chromium's pid goes to the worker with
 * the run's first messages; a runner discarded before its scan comes takes its Chromium with it all the same
 * (Chromium's DevTools pipe closes with the runner, and Chromium exits).
 */
export async function launchAhead(
  workDir: string,
  launch: RunnerLaunch,
): Promise<{ proxy: EgressProxy; browser: Browser }> {
  const proxy = await startEgressProxy({ allowLoopback: launch.allowLoopback });
  try {
    const browser = await launchBrowser(launch.chromiumPath, workDir, proxy);
    const browserPid = browser.process()?.pid;
    if (browserPid) sendMessage({ kind: 'browser', pid: browserPid });
    return { proxy, browser };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}
