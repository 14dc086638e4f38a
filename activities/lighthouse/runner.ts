/**
 * One run of a scan, desktop then mobile (or the form factors asked for), in its own process (Lighthouse
 * runs cannot share a process) and its own Chromium with a fresh profile. Reads RunnerInput on stdin, writes RunnerMessage lines on stdout, exits:
 * 0 with an observation or a page failure as the last line, non-zero when it crashed. Started by
 * process-runner.ts ahead of its scan (as the scan user, with a minimal environment, in a work folder made
 * for it and named as its argument), so Lighthouse is loaded and Chromium launched by the time the input comes; process
 * lifetime in runner-lifetime.ts, credentials in origin-credentials.ts, what it records of the network in
 * network-capture.ts, of each request's phases in request-timings.ts and of the page's document.write() calls
 * in document-write.ts, which failures are the page's in
 * page-failures.ts, the Lighthouse settings in settings.ts, the whole Lighthouse result as kept (scrubbed,
 * compressed) in report.ts.
 */
import lighthouse from 'lighthouse';
import type { Browser } from 'puppeteer-core';
import {
  FORM_FACTORS,
  type FormFactor,
  type FormFactorObservation,
  type RunObservation,
} from '../../core/scan/observation.ts';
import { credentialSecrets } from '../../core/scan/credentials.ts';
import { mainDocumentResponse } from '../../core/scan/main-document.ts';
import { redactSecrets, type SecretSet } from '../../core/redaction.ts';
import type { EgressProxy } from './egress-proxy.ts';
import { bfCacheObservation } from './clues.ts';
import { documentWrites } from './document-write.ts';
import { formFactorObservation, responseObservations, type LighthouseResult } from './extract.ts';
import { captureNetwork, documentGenerator } from './network-capture.ts';
import { addOriginCredentials } from './origin-credentials.ts';
import { checkScannedHost, PageFailureError, throwIfFailed } from './page-failures.ts';
import { MAX_REPORT_BYTES, parseRunnerLaunch, sendMessage, type RunnerInput } from './protocol.ts';
import { prepareLighthouseReport } from './report.ts';
import { requestTimings } from './request-timings.ts';
import { cleanUp, launchAhead, readInput, startLifetime } from './runner-lifetime.ts';
import { lighthouseConfigFor, lighthouseFlagsFor } from './settings.ts';

async function runFormFactor(
  browser: Browser,
  proxy: EgressProxy,
  input: RunnerInput,
  factor: FormFactor,
  secrets: SecretSet,
) {
  const page = await browser.newPage();
  try {
    const session = await page.createCDPSession();
    const capture = await captureNetwork(session);
    const credentials = input.credentials
      ? await addOriginCredentials(session, new URL(input.url).origin, input.credentials)
      : null;
    const upstreamFrom = proxy.upstream.length;
    const result = await lighthouse(input.url, lighthouseFlagsFor(factor), lighthouseConfigFor(factor), page);
    if (!result) throw new Error('Lighthouse returned no result');
    // Redacted before anything reads it: the observation, the stored result and its failures all come from it.
    const raw = redactSecrets(result.lhr, secrets);
    const lhr = raw as unknown as LighthouseResult;
    throwIfFailed(lhr, {
      proxy,
      documentUrl: capture.documentUrl,
      credentialsRefused: credentials?.refused() ?? false,
    });
    // The URLs are redacted as the result's are, so each timing finds its row there.
    const timings = redactSecrets(
      requestTimings(result.artifacts.DevtoolsLog, proxy.upstream.slice(upstreamFrom)),
      secrets,
    );
    // Not in the result: Lighthouse 13 has no audit for them, only the console messages it gathered.
    const writes = redactSecrets(documentWrites(result.artifacts.ConsoleMessages), secrets);
    return { lhr, raw, capture, timings, writes, generator: await documentGenerator(session, capture) };
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The form factors asked for, each at most once, in the order asked; anything else is the worker's bug. */
function formFactorsOf(input: RunnerInput): FormFactor[] {
  const asked = input.formFactors;
  const known =
    Array.isArray(asked) &&
    asked.length > 0 &&
    asked.every((f) => (FORM_FACTORS as readonly unknown[]).includes(f)) &&
    new Set(asked).size === asked.length;
  if (!known) throw new Error(`the runner was asked for form factors it does not know: ${JSON.stringify(asked)}`);
  return asked;
}

async function main(): Promise<void> {
  const workDir = startLifetime();
  const launch = parseRunnerLaunch(process.argv[3]);
  const launched = launchAhead(workDir, launch);
  launched.catch(() => undefined); // awaited below, once the input has come
  const input = await readInput<RunnerInput>();
  const factors = formFactorsOf(input);
  secrets = credentialSecrets(input.credentials);
  let proxy: EgressProxy | null = null;
  let browser: Browser | null = null;
  try {
    await checkScannedHost(input.url, launch.allowLoopback);
    ({ proxy, browser } = await launched);
    proxy.allowScannedUrl(input.url);
    const chromiumVersion = await browser.version();
    const perFactor: Partial<Record<FormFactor, FormFactorObservation>> = {};
    // The page itself (responses, headers, redirects, TTFB) as the first form factor loaded it: desktop in a whole run.
    let first: Awaited<ReturnType<typeof runFormFactor>> | null = null;
    let bfCache: RunObservation['bfCache'];
    for (const factor of factors) {
      sendMessage({ kind: 'progress', step: factor });
      const run = await runFormFactor(browser, proxy, input, factor, secrets);
      first ??= run;
      // Tested in the desktop load only (settings.ts).
      if (factor === 'desktop') bfCache = bfCacheObservation(run.lhr.audits['bf-cache']);
      const { observation, images } = formFactorObservation(run.lhr, factor, run.timings, run.writes);
      for (const image of images)
        sendMessage({ kind: 'image', name: image.name, base64: image.bytes.toString('base64') });
      // The whole result too (the worker keeps the median run's), already without the credentials.
      const report = prepareLighthouseReport(run.raw, factor);
      if (report.gzip.length <= MAX_REPORT_BYTES)
        sendMessage({
          kind: 'report',
          formFactor: factor,
          base64: report.gzip.toString('base64'),
          jsonBytes: report.jsonBytes,
        });
      perFactor[factor] = observation;
    }
    const { lhr, capture, generator } = first!;
    const observation: RunObservation = {
      requestedUrl: input.url,
      finalUrl: lhr.mainDocumentUrl ?? lhr.finalDisplayedUrl,
      httpStatus: 200,
      redirects: capture.redirects,
      ttfbMs: lhr.audits['server-response-time']?.numericValue ?? 0,
      generator,
      responses: responseObservations(lhr, capture.headersByUrl),
      ...perFactor,
      lighthouseVersion: lhr.lighthouseVersion,
      chromiumVersion,
      blockedRequests: [
        ...new Set(proxy.failures.filter((f) => f.code === 'blocked_address').map((f) => f.target)),
      ].slice(0, 20),
      ...(bfCache !== undefined ? { bfCache } : {}),
    };
    const mainResponse = mainDocumentResponse(observation);
    if (mainResponse) observation.httpStatus = mainResponse.status;
    // What the network capture recorded (headers, redirects) may echo the credentials as well.
    sendMessage({ kind: 'observation', observation: redactSecrets(observation, secrets) });
  } finally {
    await browser?.close().catch(() => undefined);
    await proxy?.close();
    cleanUp();
  }
}

/** The run's credentials as the redaction rule reads them; none until the input has come. */
let secrets: SecretSet = credentialSecrets(null);

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    if (error instanceof PageFailureError) {
      sendMessage({
        kind: 'page_failure',
        code: error.code,
        detail: secrets.redact(error.message),
        ...(error.httpStatus ? { httpStatus: error.httpStatus } : {}),
      });
      process.exit(0);
    }
    process.stderr.write(
      `${secrets.redact(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
    );
    process.exit(1);
  });
