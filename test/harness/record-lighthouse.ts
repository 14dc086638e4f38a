/**
 * Records what the real scan runner (activities/lighthouse/process-runner.ts: Lighthouse in a sandboxed
 * Chromium) hands back, desktop and mobile, into fixtures/recorded/lighthouse-<installed version>/, for the
 * replay runner (fixtures/replay-runner.ts): each of RECORDED_PAGES of the fixture sites (fixtures/sites.ts),
 * under its path, and a page of the regression site (fixtures/regression-site.ts) in each of its
 * RECORDED_STATES, under the name the site gives that state. Run it after Lighthouse is upgraded (a unit test
 * names it then): `npm run record:lighthouse` makes the folder anew; `npm run record:lighthouse -- --missing`
 * keeps the recordings there and records only those missing (after a page or state was added).
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import {
  installedLighthouseVersion,
  RECORDED_PAGES,
  recordingFile,
  recordingFolder,
  writeRecording,
  type Recording,
} from '../../fixtures/recorded-lighthouse.ts';
import { RECORDED_STATES, recordingName, startRegressionSite } from '../../fixtures/regression-site.ts';
import { startFixtureSites } from '../../fixtures/sites.ts';
import { loadConfig } from '../../infra/config.ts';
import { baseTestEnv } from './shared.ts';

const missingOnly = process.argv.includes('--missing');
const config = loadConfig(baseTestEnv(), { keys: false });
const version = installedLighthouseVersion();
const folder = recordingFolder(version);
if (!missingOnly) rmSync(folder, { recursive: true, force: true });
const sites = await startFixtureSites();
const regressionSite = await startRegressionSite();
const runner = processRunner({ chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser });

/** Runs the real runner on `url` and stores what it handed back under `key`. */
async function record(key: string, url: string): Promise<void> {
  if (missingOnly && existsSync(recordingFile(version, key))) {
    console.log(`kept ${key}`);
    return;
  }
  const result = await runner.run(
    { publicId: `record-${key}`, url, credentials: null, formFactors: ['desktop', 'mobile'] },
    { onProgress: () => undefined, signal: new AbortController().signal },
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
}

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
const files = readdirSync(folder);
const bytes = files.reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
console.log(`Lighthouse ${version}: ${files.length} recordings in ${folder}, ${Math.round(bytes / 1024)} KiB`);
