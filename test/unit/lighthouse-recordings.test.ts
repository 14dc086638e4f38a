import { existsSync } from 'node:fs';
import {
  installedLighthouseVersion,
  readRecording,
  RECORD_COMMAND,
  RECORDED_PAGES,
  recordingFile,
} from '../../fixtures/recorded-lighthouse.ts';

// The replay runner (fixtures/replay-runner.ts) serves the integration tests whose subject is not Lighthouse
// from these recordings; after a Lighthouse upgrade they must be made again with the new version.
const version = installedLighthouseVersion();

test.each(RECORDED_PAGES)(`the installed Lighthouse has a recording of %s (else: ${RECORD_COMMAND})`, (path) => {
  const file = recordingFile(version, path);
  if (!existsSync(file))
    throw new Error(`no recording of ${path} for the installed Lighthouse ${version} (${file}): run ${RECORD_COMMAND}`);
});

test('a recording replays under the scanned host, with the installed Lighthouse version', () => {
  const recording = readRecording(version, 'http://127.0.0.1:4321/fast/?any=query');
  expect(recording?.kind).toBe('observation');
  if (recording?.kind !== 'observation') return;
  expect(recording.observation.lighthouseVersion).toBe(version);
  expect(recording.observation.finalUrl).toBe('http://127.0.0.1:4321/fast/');
  expect(recording.reports.map((r) => r.formFactor).sort()).toEqual(['desktop', 'mobile']);
  for (const report of recording.reports)
    expect(report.json).toContain('"finalDisplayedUrl":"http://127.0.0.1:4321/fast/"');
  expect(JSON.stringify(recording)).not.toContain('__RECORDED_HOST__');
});
