/**
 * One scan, desktop then mobile, in its own process (Lighthouse runs cannot share a process) and its own
 * Chromium with a fresh profile. Reads RunnerInput on stdin, writes RunnerMessage lines on stdout, exits.
 * It runs with a minimal environment, as an unprivileged user when the worker is root, in a folder the
 * activity made for it (`workDir`, its HOME and TMPDIR); images go back to the activity on stdout. The
 * parent kills this process group and Chromium's on cancellation and removes the folder; Chromium talks to
 * us over a pipe, so it also exits when this process dies; an orphaned runner removes the folder itself.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, sandboxFlags } from '../../core/chromium.ts';
import { checkScanTarget } from '../../core/scan-target.ts';
import { FORM_FACTORS, type FormFactor, type FormFactorObservation, type ScanObservation } from '../../core/scan/observation.ts';
import type { FailureCode } from '../../core/scan/failures.ts';
import type { ScanCredentials } from '../../services/scans.ts';
import { startEgressProxy, type EgressProxy } from './egress-proxy.ts';
import { killProcessGroup } from './process-group.ts';
import { formFactorObservation, responseObservations, type LighthouseResult } from './extract.ts';
import type { RunnerInput, RunnerMessage } from './protocol.ts';

class PageFailure extends Error {
  readonly code: FailureCode;
  readonly httpStatus: number | undefined;
  constructor(code: FailureCode, detail: string, httpStatus?: number) {
    super(detail);
    this.code = code;
    this.httpStatus = httpStatus;
  }
}

const send = (message: RunnerMessage) => process.stdout.write(`${JSON.stringify(message)}\n`);

async function readInput(): Promise<RunnerInput> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return JSON.parse(text) as RunnerInput;
}

function credentialHeader(credentials: ScanCredentials): { name: string; value: string } {
  return credentials.type === 'basic'
    ? { name: 'Authorization', value: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` }
    : { name: credentials.header_name, value: credentials.header_value };
}

/**
 * Adds the credentials to requests for the scanned origin only. Requests to any other origin are never
 * paused (the interception pattern names the origin) and are checked again before the header is added.
 * A paused request is always released: when Chromium refuses the modified request (a header it cannot
 * send), a request for the scanned origin fails and any other goes on unmodified, so no load waits forever.
 */
async function addOriginCredentials(session: CDPSession, origin: string, credentials: ScanCredentials): Promise<{ refused(): boolean }> {
  const header = credentialHeader(credentials);
  let refused = false;
  const release = async (event: { requestId: string; request: { url: string; headers: Record<string, string> } }) => {
    const sameOrigin = new URL(event.request.url).origin === origin;
    const headers = Object.entries(event.request.headers)
      .filter(([name]) => name.toLowerCase() !== header.name.toLowerCase())
      .map(([name, value]) => ({ name, value }));
    if (sameOrigin) headers.push(header);
    try {
      await session.send('Fetch.continueRequest', { requestId: event.requestId, headers });
      return;
    } catch {
      if (sameOrigin) refused = true;
    }
    try {
      if (sameOrigin) await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'AccessDenied' });
      else await session.send('Fetch.continueRequest', { requestId: event.requestId });
    } catch {
      // The request went away meanwhile (page closed or navigated), or continuing it failed too: fail it.
      await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Failed' }).catch(() => undefined);
    }
  };
  session.on('Fetch.requestPaused', (event: { requestId: string; request: { url: string; headers: Record<string, string> } }) => void release(event));
  await session.send('Fetch.enable', { patterns: [{ urlPattern: `${origin}/*`, requestStage: 'Request' }] });
  return { refused: () => refused };
}

interface Capture {
  headersByUrl: Map<string, Record<string, string>>;
  /** The last main-document URL the browser asked for (after redirects). */
  documentUrl: string | null;
  documentRequestIds: string[];
  redirects: Array<{ url: string; status: number }>;
}

/** Response headers of every request and the main document's redirect hops, from the page's own CDP session. */
async function captureNetwork(session: CDPSession): Promise<Capture> {
  const capture: Capture = { headersByUrl: new Map(), documentUrl: null, documentRequestIds: [], redirects: [] };
  session.on('Network.requestWillBeSent', (event: { requestId: string; type?: string; request: { url: string }; redirectResponse?: { url: string; status: number } }) => {
    if (event.type === 'Document') capture.documentUrl = event.request.url;
    if (event.type === 'Document' && event.redirectResponse) capture.redirects.push({ url: event.redirectResponse.url, status: event.redirectResponse.status });
  });
  session.on('Network.responseReceived', (event: { requestId: string; type?: string; response: { url: string; headers: Record<string, string> } }) => {
    if (!capture.headersByUrl.has(event.response.url)) {
      capture.headersByUrl.set(event.response.url, Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)])));
    }
    if (event.type === 'Document') capture.documentRequestIds.push(event.requestId);
  });
  await session.send('Network.enable');
  return capture;
}

/** The page's own failures, by Lighthouse's runtime error; null for ours (thrown as a plain error, so Temporal retries it). */
function pageFailureCode(error: { code: string; message: string }): FailureCode | null {
  switch (error.code) {
    case 'ERRORED_DOCUMENT_REQUEST':
      return 'http_error';
    case 'FAILED_DOCUMENT_REQUEST':
      return /ERR_NAME_NOT_RESOLVED/.test(error.message) ? 'dns_failed' : 'connection_failed';
    case 'CHROME_INTERSTITIAL_ERROR':
      // What Chromium shows for a refused or reset connection (and for certificate errors).
      return 'connection_failed';
    case 'DNS_FAILURE':
      return 'dns_failed';
    case 'PAGE_HUNG':
    case 'NO_DOCUMENT_REQUEST':
      return 'timeout';
    case 'NO_FCP':
      return 'no_paint';
    default:
      return null;
  }
}

function failureFrom(lhr: LighthouseResult): PageFailure | null {
  const error = lhr.runtimeError;
  const code = error ? pageFailureCode(error) : null;
  if (!error || !code) return null;
  const status = code === 'http_error' ? /status code: (\d{3})/i.exec(error.message)?.[1] : undefined;
  return new PageFailure(code, `Lighthouse ${error.code}: ${error.message.slice(0, 500)}`, status ? Number(status) : undefined);
}

async function runFormFactor(browser: Browser, proxy: EgressProxy, input: RunnerInput, factor: FormFactor) {
  const page: Page = await browser.newPage();
  try {
    const session = await page.createCDPSession();
    const capture = await captureNetwork(session);
    const credentials = input.credentials ? await addOriginCredentials(session, new URL(input.url).origin, input.credentials) : null;
    const flags = {
      onlyCategories: ['performance'],
      disableFullPageScreenshot: true,
      skipAudits: ['bf-cache'],
      maxWaitForLoad: 45_000,
      logLevel: 'error' as const,
    };
    const result = await lighthouse(input.url, flags, factor === 'desktop' ? desktopConfig : undefined, page);
    if (!result) throw new Error('Lighthouse returned no result');
    const lhr = result.lhr as unknown as LighthouseResult;
    // The egress proxy knows why a document request failed better than the browser's error page does.
    const refused = lhr.runtimeError && capture.documentUrl ? proxy.failureFor(capture.documentUrl) : undefined;
    if (refused) throw new PageFailure(refused.code, refused.message);
    if (lhr.runtimeError && credentials?.refused()) throw new PageFailure('scan_error', 'The credentials could not be added to the requests for the page.');
    const failure = failureFrom(lhr);
    if (failure) throw failure;
    if (lhr.runtimeError) throw new Error(`Lighthouse ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    let generator: string | null = null;
    const documentId = capture.documentRequestIds.at(-1);
    if (documentId) {
      const body = (await session.send('Network.getResponseBody', { requestId: documentId }).catch(() => null)) as { body: string; base64Encoded: boolean } | null;
      const html = body ? (body.base64Encoded ? Buffer.from(body.body, 'base64').toString('utf8') : body.body) : '';
      generator = /<meta\s+[^>]*name=["']generator["'][^>]*content=["']([^"']{1,200})["']/i.exec(html)?.[1] ?? /<meta\s+[^>]*content=["']([^"']{1,200})["'][^>]*name=["']generator["']/i.exec(html)?.[1] ?? null;
    }
    return { lhr, capture, generator };
  } finally {
    await page.close().catch(() => undefined);
  }
}

/**
 * Every request through the egress proxy, loopback included (Chromium bypasses proxies for it by default),
 * and no WebRTC UDP that does not go through a proxy (Chromium has no UDP proxying, so none at all): a
 * page's STUN/TURN servers would otherwise receive datagrams straight from this machine.
 */
const egressFlags = (proxy: EgressProxy) => [`--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>', '--webrtc-ip-handling-policy=disable_non_proxied_udp'];

let browserPid: number | undefined;
let workDir: string | undefined;

/**
 * Chromium first (a browser that outlives us shuts down gracefully and writes its profile while we delete
 * it), then our folder. Synchronous, so it also runs on process exit, however we exit.
 */
function cleanUp(): void {
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

async function main(): Promise<void> {
  exitWithParent();
  const input = await readInput();
  const target = new URL(input.url);
  const verdict = await checkScanTarget(target.hostname, { allowLoopback: input.allowLoopback });
  if (!verdict.allowed) {
    // A resolver failure of ours is retried (by Temporal); a name that does not exist is the page's failure.
    if (verdict.code === 'dns_failed' && verdict.temporary) throw new Error(verdict.reason);
    throw new PageFailure(verdict.code, verdict.reason);
  }
  workDir = input.workDir;
  process.once('exit', cleanUp);
  // Chromium's own temporary files (shared memory, with --disable-dev-shm-usage) go inside the folder too.
  const chromiumTmp = join(workDir, 'tmp');
  mkdirSync(chromiumTmp);
  let browser: Browser | null = null;
  const proxy = await startEgressProxy({ allowLoopback: input.allowLoopback, scannedUrl: input.url });
  try {
    browser = await puppeteer.launch({
      executablePath: input.chromiumPath,
      args: [...CHROMIUM_FLAGS, ...sandboxFlags(), ...egressFlags(proxy), `--user-data-dir=${join(workDir, 'user-data')}`],
      // Our own environment is already the minimal one the activity gave us (protocol.ts).
      env: { ...process.env, TMPDIR: chromiumTmp },
      headless: true,
      pipe: true,
    });
    browserPid = browser.process()?.pid;
    if (browserPid) send({ kind: 'browser', pid: browserPid });
    const perFactor = {} as Record<FormFactor, FormFactorObservation>;
    let desktop: Awaited<ReturnType<typeof runFormFactor>> | null = null;
    for (const factor of FORM_FACTORS) {
      send({ kind: 'progress', step: factor });
      const run = await runFormFactor(browser, proxy, input, factor);
      if (factor === 'desktop') desktop = run;
      const { observation, images } = formFactorObservation(run.lhr, factor);
      for (const image of images) send({ kind: 'image', name: image.name, base64: image.bytes.toString('base64') });
      perFactor[factor] = observation;
    }
    const lhr = desktop!.lhr;
    const observation: ScanObservation = {
      requestedUrl: input.url,
      finalUrl: lhr.mainDocumentUrl ?? lhr.finalDisplayedUrl,
      httpStatus: 200,
      redirects: desktop!.capture.redirects,
      ttfbMs: lhr.audits['server-response-time']?.numericValue ?? 0,
      generator: desktop!.generator,
      responses: responseObservations(lhr, desktop!.capture.headersByUrl),
      desktop: perFactor.desktop,
      mobile: perFactor.mobile,
      lighthouseVersion: lhr.lighthouseVersion,
      blockedRequests: [...new Set(proxy.failures.filter((f) => f.code === 'blocked_address').map((f) => f.target))].slice(0, 20),
    };
    const main = observation.responses.find((r) => r.url === observation.finalUrl);
    if (main) observation.httpStatus = main.status;
    send({ kind: 'observation', observation });
  } finally {
    await browser?.close().catch(() => undefined);
    await proxy.close();
    cleanUp();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    if (error instanceof PageFailure) {
      send({ kind: 'page_failure', code: error.code, detail: error.message, ...(error.httpStatus ? { httpStatus: error.httpStatus } : {}) });
      process.exit(0);
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
