/**
 * Jest runs the TypeScript sources as native ESM (swc strips the types), in two projects:
 * - `unit`: test/unit/, tests that need no service (no Postgres, ClickHouse, Temporal server, Chromium or
 *   prebuilt workflow bundle); `npm run test:unit` (jest.unit.config.js) runs them in seconds with nothing started.
 * - `integration`: every other test file, against the real stack that its global setup brings up (or
 *   reuses), migrates and builds the workflow bundle for. Jest runs a project's global setup only when at
 *   least one of its files is selected, so a run of unit files alone never touches the stack.
 */
import { PART_WORKERS, partSelection } from './test/harness/lanes.js';

const part = process.env.WEBPERF_INTEGRATION_PART;

const shared = {
  testEnvironment: '<rootDir>/test/harness/cpu-environment.js',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } },
    ],
  },
  setupFilesAfterEnv: ['<rootDir>/test/harness/after-each-file.ts'],
};

export const unitProject = {
  ...shared,
  displayName: 'unit',
  testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
  globalSetup: '<rootDir>/test/harness/unit-global-setup.js',
  globalTeardown: '<rootDir>/test/harness/unit-global-teardown.js',
};

export default {
  maxWorkers: part ? PART_WORKERS[part] : 2,
  // The longest integration files first (test/harness/sequencer.js), also on a clean clone.
  testSequencer: '<rootDir>/test/harness/sequencer.js',
  // Jest reads the test timeout from the top-level configuration only, not per project.
  testTimeout: 120000,
  projects: [
    unitProject,
    {
      ...shared,
      displayName: 'integration',
      // One part of the lane, or the whole of it (test/harness/lanes.js).
      ...partSelection(part),
      globalSetup: '<rootDir>/test/harness/global-setup.js',
      globalTeardown: '<rootDir>/test/harness/global-teardown.js',
    },
  ],
};
