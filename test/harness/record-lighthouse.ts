/**
 * Records, into fixtures/recorded/lighthouse-<installed version>/, what the real runners hand back, for the
 * replay runners of tests whose subject is not Lighthouse:
 * - the scan runner (activities/lighthouse/process-runner.ts: Lighthouse in a sandboxed Chromium), desktop and
 *   mobile, for each of RECORDED_PAGES of the fixture sites (fixtures/sites.ts) under its path, and for a page
 *   of the regression site (fixtures/regression-site.ts) in each of its RECORDED_STATES under the name the site
 *   gives that state (fixtures/replay-runner.ts replays them);
 * - the flow runner (activities/flows/process-flow-runner.ts) for each of RECORDED_FLOWS on the fixture shop, into
 *   flows/ (fixtures/flow-replay-runner.ts replays them); a flow that does not end as RECORDED_FLOWS says is
 *   not stored, and the command fails.
 * Run it after Lighthouse is upgraded (a unit test names it then): `npm run record:lighthouse` makes the folder
 * anew; with `pages` or `flows` (`npm run record:lighthouse -- flows`) it records only those and keeps the
 * others; with `--missing` it keeps every page recording there and records only the pages and states missing
 * (after one was added).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createProcessFlowRunner } from '../../activities/flows/process-flow-runner.ts';
import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import {
  flowRecordingFile,
  RECORDED_FLOWS,
  recordedFlowDefinition,
  writeFlowRecording,
} from '../../fixtures/recorded-flows.ts';
import {
  installedLighthouseVersion,
  RECORDED_PAGES,
  recordingFile,
  recordingFolder,
  writeRecording,
  type Recording,
} from '../../fixtures/recorded-lighthouse.ts';
import { RECORDED_STATES, recordingName, startRegressionSite } from '../../fixtures/regression-site.ts';
import { startShop } from '../../fixtures/shop.ts';
import { startFixtureSites } from '../../fixtures/sites.ts';
import { loadConfig } from '../../infra/config.ts';
import { baseTestEnv } from './shared.ts';

const config = loadConfig(baseTestEnv(), { keys: false });
const version = installedLighthouseVersion();
const folder = recordingFolder(version);
const flowsFolder = join(folder, 'flows');
const args = process.argv.slice(2);
const missingOnly = args.includes('--missing');
const only = args.find((arg) => arg !== '--missing');
if (only !== undefined && only !== 'pages' && only !== 'flows')
  throw new Error('usage: npm run record:lighthouse [-- pages|flows] [--missing]');
const runnerSettings = { chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser };
const never = new AbortController().signal;

async function recordPages(): Promise<void> {
  mkdirSync(folder, { recursive: true });
  if (!missingOnly)
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isFile()) rmSync(join(folder, entry.name));
  const sites = await startFixtureSites();
  const regressionSite = await startRegressionSite();
  const runner = processRunner(runnerSettings);
  /** Runs the real runner on `url` and stores what it handed back under `key`. */
  const record = async (key: string, url: string): Promise<void> => {
    if (missingOnly && existsSync(recordingFile(version, key))) {
      console.log(`kept ${key}`);
      return;
    }
    const result = await runner.run(
      { publicId: `record-${key}`, url, credentials: null, formFactors: ['desktop', 'mobile'] },
      { onProgress: () => undefined, signal: never },
    );
    const recording: Recording =
      result.kind === 'page_failure'
        ? result
        : {
            kind: 'observation',
            observation: result.observation,
            images: result.images.map((image) => ({ name: image.name, base64: image.bytes.toString('base64') })),
            reports: (result.reports ?? []).map((report) => ({
              formFactor: report.formFactor,
              json: gunzipSync(report.gzip).toString('utf8'),
            })),
          };
    writeRecording(version, key, url, recording);
    console.log(`recorded ${key} (${result.kind})`);
  };
  try {
    for (const path of RECORDED_PAGES) await record(path, `${sites.origin}${path}`);
    for (const state of RECORDED_STATES) {
      // Every knob set, so that each state is exactly the one it is named after.
      regressionSite.set('recorded', { heroSide: 0, stylesheetDelayMs: 0, mainThreadMs: 0, ...state });
      await record(recordingName(state), regressionSite.url('recorded'));
    }
  } finally {
    runner.close();
    await sites.close();
    await regressionSite.close();
  }
}

async function recordFlows(): Promise<void> {
  rmSync(flowsFolder, { recursive: true, force: true });
  const shop = await startShop();
  const runner = createProcessFlowRunner(runnerSettings);
  try {
    for (const flow of RECORDED_FLOWS) {
      // Distinctive, so that the recording can name it by a placeholder (the replay puts its own run id there).
      const runId = `recordedflowrun${flow.name.replace(/[^a-z0-9]/gi, '')}`;
      const { outcome, images } = await runner.run(
        { runId, definition: recordedFlowDefinition(flow, shop.origin), secrets: flow.secrets },
        { onProgress: () => undefined, signal: never },
      );
      const ended = outcome.failure ? { index: outcome.failure.index, code: outcome.failure.code } : 'finished';
      if (JSON.stringify(ended) !== JSON.stringify(flow.ends))
        throw new Error(
          `the flow ${flow.name} ended ${JSON.stringify(ended)}, not ${JSON.stringify(flow.ends)} (${outcome.failure?.message ?? ''})`,
        );
      writeFlowRecording(version, flow, shop.origin, runId, {
        outcome,
        images: images.map((image) => ({ name: image.name, base64: image.bytes.toString('base64') })),
      });
      console.log(`recorded flow ${flow.name} (${JSON.stringify(ended)})`);
    }
  } finally {
    runner.close();
    await shop.close();
  }
}

const kib = (files: string[]) => Math.round(files.reduce((sum, file) => sum + statSync(file).size, 0) / 1024);
if (only === undefined && !missingOnly) rmSync(folder, { recursive: true, force: true });
if (only !== 'flows') await recordPages();
if (only !== 'pages' && !(missingOnly && RECORDED_FLOWS.every((flow) => existsSync(flowRecordingFile(version, flow)))))
  await recordFlows();
const pageFiles = readdirSync(folder, { withFileTypes: true }).filter((f) => f.isFile());
console.log(
  `Lighthouse ${version}: ${pageFiles.length} page recordings (${kib(pageFiles.map((f) => join(folder, f.name)))} KiB) and ` +
    `${RECORDED_FLOWS.length} flows (${kib(RECORDED_FLOWS.map((flow) => flowRecordingFile(version, flow)))} KiB) in ${folder}`,
);
