/**
 * Records what the real scan runner (activities/lighthouse/process-runner.ts: Lighthouse in a sandboxed
 * Chromium) hands back for each of RECORDED_PAGES of the fixture sites, desktop and mobile, into
 * fixtures/recorded/lighthouse-<installed version>/, for the replay runner (fixtures/replay-runner.ts).
 * Run it after Lighthouse is upgraded (a unit test names it then): `npm run record:lighthouse`.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import {
  installedLighthouseVersion,
  RECORDED_PAGES,
  recordingFolder,
  writeRecording,
  type Recording,
} from '../../fixtures/recorded-lighthouse.ts';
import { startFixtureSites } from '../../fixtures/sites.ts';
import { loadConfig } from '../../infra/config.ts';
import { baseTestEnv } from './shared.ts';

const config = loadConfig(baseTestEnv(), { keys: false });
const version = installedLighthouseVersion();
const folder = recordingFolder(version);
rmSync(folder, { recursive: true, force: true });
const sites = await startFixtureSites();
const runner = processRunner({ chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser });
try {
  for (const path of RECORDED_PAGES) {
    const url = `${sites.origin}${path}`;
    const result = await runner.run(
      { publicId: `record-${path}`, url, credentials: null, formFactors: ['desktop', 'mobile'] },
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
    writeRecording(version, path, new URL(sites.origin).host, recording);
    console.log(`recorded ${path} (${result.kind})`);
  }
} finally {
  runner.close();
  await sites.close();
}
const bytes = readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
console.log(`Lighthouse ${version}: ${RECORDED_PAGES.length} pages in ${folder}, ${Math.round(bytes / 1024)} KiB`);
