import { checkOpenLogs } from './log-sink.ts';

// Log sources a test file never closed are inspected when the file ends (test/harness/log-sink.ts).
afterAll(() => checkOpenLogs());
