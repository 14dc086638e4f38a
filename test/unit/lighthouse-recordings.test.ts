import { existsSync } from 'node:fs';
import { get } from 'node:http';
import {
  flowRecordingFile,
  readFlowRecording,
  RECORDED_FLOWS,
  recordedFlowDefinition,
  recordedFlowOf,
  SIGN_IN_FLOW,
  SIGN_IN_PAGE_FLOW,
  SIGN_IN_WRONG_PASSWORD_FLOW,
} from '../../fixtures/recorded-flows.ts';
import {
  installedLighthouseVersion,
  readRecording,
  RECORD_COMMAND,
  RECORDED_PAGES,
  RECORDING_HEADER,
  recordingFile,
} from '../../fixtures/recorded-lighthouse.ts';
import { RECORDED_STATES, recordingName, startRegressionSite } from '../../fixtures/regression-site.ts';
import { LIGHTHOUSE_FLAGS, lighthouseFlagsFor } from '../../activities/lighthouse/settings.ts';

// The replay runners (fixtures/replay-runner.ts, fixtures/flow-replay-runner.ts) serve the integration tests whose
// subject is not Lighthouse from these recordings; after a Lighthouse upgrade they must be made again with the new
// version.
const version = installedLighthouseVersion();
const NAMED = RECORDED_STATES.map((state) => recordingName(state));

test.each([...RECORDED_PAGES, ...NAMED])(
  `the installed Lighthouse has a recording of %s (else: ${RECORD_COMMAND})`,
  (key) => {
    const file = recordingFile(version, key);
    if (!existsSync(file))
      throw new Error(
        `no recording of ${key} for the installed Lighthouse ${version} (${file}): run ${RECORD_COMMAND}`,
      );
  },
);

test.each([...RECORDED_PAGES, ...NAMED])(
  `the recording of %s was made with the scans' Lighthouse settings (else: ${RECORD_COMMAND} -- pages)`,
  (key) => {
    const recording = key.startsWith('/')
      ? readRecording(version, `http://127.0.0.1:4321${key}`)
      : readRecording(version, 'http://127.0.0.1:4321/page/', key);
    if (recording?.kind !== 'observation') throw new Error(`no observation recorded for ${key}`);
    expect(recording.reports).toHaveLength(2);
    for (const report of recording.reports) {
      const lhr = JSON.parse(report.json) as {
        configSettings: { onlyCategories: string[] | null; skipAudits: string[] | null };
        categories: Record<string, unknown>;
      };
      expect(lhr.configSettings.onlyCategories).toEqual(LIGHTHOUSE_FLAGS.onlyCategories);
      expect(lhr.configSettings.skipAudits ?? []).toEqual(lighthouseFlagsFor(report.formFactor).skipAudits);
      expect(Object.keys(lhr.categories).sort()).toEqual([...LIGHTHOUSE_FLAGS.onlyCategories].sort());
      // The runner's observation of the same run carries what it read of them.
      expect(recording.observation[report.formFactor]?.lighthouse).toBeDefined();
    }
  },
);

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

test('a named recording replays as the page that named it: its host and its path', () => {
  for (const name of NAMED) {
    const recording = readRecording(version, 'http://127.0.0.1:4321/slower/', name);
    expect(recording?.kind).toBe('observation');
    if (recording?.kind !== 'observation') return;
    expect(recording.observation.finalUrl).toBe('http://127.0.0.1:4321/slower/');
    for (const report of recording.reports)
      expect(report.json).toContain('"finalDisplayedUrl":"http://127.0.0.1:4321/slower/"');
    const text = JSON.stringify(recording);
    expect(text).toContain('http://127.0.0.1:4321/slower/hero.png');
    expect(text).not.toMatch(/__RECORDED_(HOST|PAGE)__|\/recorded\//);
  }
  // The heavy hero is what the regression test's slowdown is: a real run of it, with a later mobile LCP.
  const lcp = (name: string) => {
    const recording = readRecording(version, 'http://127.0.0.1:4321/slower/', name);
    return recording?.kind === 'observation' ? recording.observation.mobile?.metrics.lcpMs : undefined;
  };
  expect(lcp('regression-hero-300')! - lcp('regression')!).toBeGreaterThan(500);
});

test('a name that is not one is refused, so a header cannot reach outside the folder', () => {
  expect(() => recordingFile(version, '../../etc/passwd')).toThrow(/not a recording name/);
  expect(() => recordingFile(version, 'Regression')).toThrow(/not a recording name/);
});

test('the regression site names the state of the page it served, load by load', async () => {
  const site = await startRegressionSite();
  try {
    // One connection per load (no keep-alive), as the replay runner's fetch through the egress proxy makes it.
    const named = (page: string) =>
      new Promise<string | undefined>((done, fail) =>
        get(site.url(page), { agent: false }, (res) => {
          res.resume();
          res.on('end', () => done(res.headers[RECORDING_HEADER] as string | undefined));
        }).on('error', fail),
      );
    expect(await named('page')).toBe('regression');
    site.slowNext('page', 1, { heroSide: 300 });
    expect(await named('page')).toBe('regression-hero-300');
    expect(await named('page')).toBe('regression');
    site.set('page', { heroSide: 300 });
    expect(await named('page')).toBe('regression-hero-300');
    site.set('page', { heroSide: 0, mainThreadMs: 40 });
    expect(await named('page')).toBe('regression-main-thread-40ms');
  } finally {
    await site.close();
  }
});

test.each(RECORDED_FLOWS.map((flow) => [flow.name, flow] as const))(
  `the installed Lighthouse has a recording of the flow %s, ending as the flow says (else: ${RECORD_COMMAND})`,
  (name, flow) => {
    const file = flowRecordingFile(version, flow);
    if (!existsSync(file))
      throw new Error(
        `no recording of the flow ${name} for the installed Lighthouse ${version} (${file}): run ${RECORD_COMMAND}`,
      );
    const origin = 'http://127.0.0.1:4321';
    const recording = readFlowRecording(version, {
      runId: 'unitrun',
      definition: recordedFlowDefinition(flow, origin, 'Any name'),
      secrets: flow.secrets,
    });
    if (!recording)
      throw new Error(`the recording of the flow ${name} (${file}) was made from other steps: run ${RECORD_COMMAND}`);
    const { outcome, images } = recording;
    expect(outcome.lighthouseVersion).toBe(version);
    expect(outcome.failure ? { index: outcome.failure.index, code: outcome.failure.code } : 'finished').toEqual(
      flow.ends,
    );
    expect(outcome.steps.length).toBeGreaterThan(0);
    for (const step of outcome.steps) expect(step.url.startsWith(`${origin}/`)).toBe(true);
    // The screenshots the outcome names, under the run's id, and no other.
    const named = [...outcome.steps.map((s) => s.screenshot), outcome.failure?.screenshot].filter(Boolean);
    expect(images.map((i) => i.name).sort()).toEqual(named.sort());
    for (const image of images) expect(image.name).toMatch(/^flow-unitrun-step-\d+(-failure)?\.jpg$/);
    const text = JSON.stringify(recording);
    expect(text).not.toMatch(/__RECORDED_(HOST|RUN)__/);
    for (const secret of Object.values(flow.secrets)) expect(text).not.toContain(secret.value);
  },
);

test('a flow replays only for the steps and the typed secrets it was recorded with, whatever its name and host', () => {
  const at = (origin: string) => recordedFlowDefinition(SIGN_IN_FLOW, origin);
  expect(recordedFlowOf({ definition: at('http://127.0.0.1:1'), secrets: SIGN_IN_FLOW.secrets })).toBe(SIGN_IN_FLOW);
  expect(recordedFlowOf({ definition: at('http://127.0.0.1:2'), secrets: SIGN_IN_WRONG_PASSWORD_FLOW.secrets })).toBe(
    SIGN_IN_WRONG_PASSWORD_FLOW,
  );
  expect(recordedFlowOf({ definition: at('http://127.0.0.1:3'), secrets: {} })).toBeUndefined();
  // A secret the steps do not type changes nothing.
  const page = recordedFlowDefinition(SIGN_IN_PAGE_FLOW, 'http://127.0.0.1:4', 'Another name');
  const untyped = { password: { kind: 'password' as const, value: 'never-typed-secret' } };
  expect(recordedFlowOf({ definition: page, secrets: untyped })).toBe(SIGN_IN_PAGE_FLOW);
  expect(recordedFlowOf({ definition: { ...page, form_factor: 'mobile' }, secrets: {} })).toBeUndefined();
  const otherSteps = { ...page, steps: [...page.steps, { type: 'snapshot' as const, name: 'Again' }] };
  expect(recordedFlowOf({ definition: otherSteps, secrets: {} })).toBeUndefined();
  // Each step's fields in any order (Postgres's jsonb keeps them in an order of its own).
  const reordered = {
    ...page,
    steps: page.steps.map((step) => Object.fromEntries(Object.entries(step).reverse()) as typeof step),
  };
  expect(recordedFlowOf({ definition: reordered, secrets: {} })).toBe(SIGN_IN_PAGE_FLOW);
});
