/** Jest runs the TypeScript sources as native ESM (swc strips the types). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/harness/global-setup.js',
  globalTeardown: '<rootDir>/test/harness/global-teardown.js',
  setupFilesAfterEnv: ['<rootDir>/test/harness/after-each-file.ts'],
  testTimeout: 120000,
  maxWorkers: 2,
};
