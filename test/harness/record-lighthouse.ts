/**
 * Records what the real scan runner (activities/lighthouse/process-runner.ts: Lighthouse in a sandboxed
 * Chromium) hands back for each of RECORDED_PAGES of the fixture sites, desktop and mobile, into
 * fixtures/recorded/lighthouse-<installed version>/, for the replay runner (fixtures/replay-runner.ts).
 * Run it after Lighthouse is upgraded (a unit test names it then): `npm run record:lighthouse`, which makes the
 * version's folder anew. With page paths (`npm run record:lighthouse -- /actionable/`) it records only those
 * pages of RECORDED_PAGES and keeps the folder's other recordings: for a page added to the list.
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
const asked = process.argv.slice(2);
const unknown = asked.filter((path) => !(RECORDED_PAGES as readonly string[]).includes(path));
if (unknown.length) throw new Error(`not in RECORDED_PAGES (fixtures/recorded-lighthouse.ts): ${unknown.join(', ')}`);
const pages = asked.length ? asked : RECORDED_PAGES;
if (!asked.length) rmSync(folder, { recursive: true, force: true });
const sites = await startFixtureSites();
const runner = processRunner({ chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser });
try {
  for (const path of pages) {
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
const files = readdirSync(folder);
const bytes = files.reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
console.log(`Lighthouse ${version}: ${files.length} pages in ${folder}, ${Math.round(bytes / 1024)} KiB`);
