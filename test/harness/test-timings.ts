/**
 * Per-file times of the test lanes, from jest's --json output (.state/test/jest-<lane>.json, written by
 * `./svc test`): `write` stores them as .state/test/timings-<lane>.json (file, seconds; slowest first);
 * `slowest` (`npm run test:slowest`) prints each lane's 15 slowest files with their share of the lane's
 * file time (the sum over its files: with two jest workers the lane's wall time is about half of it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { HARNESS_DIR } from './shared.ts';

const LANES = ['unit', 'integration'] as const;
const SHOWN = 15;

interface FileTime {
  file: string;
  seconds: number;
}

interface JestJson {
  startTime: number;
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

const jestFile = (lane: string) => resolve(HARNESS_DIR, `jest-${lane}.json`);
const timingsFile = (lane: string) => resolve(HARNESS_DIR, `timings-${lane}.json`);

export function fileTimes(run: JestJson): FileTime[] {
  return run.testResults
    .map((result) => ({
      file: relative(PROJECT_ROOT, result.name),
      seconds: Math.max(0, result.endTime - result.startTime) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

function write(): void {
  for (const lane of LANES) {
    if (!existsSync(jestFile(lane))) continue;
    const times = fileTimes(JSON.parse(readFileSync(jestFile(lane), 'utf8')) as JestJson);
    writeFileSync(timingsFile(lane), `${JSON.stringify(times, null, 1)}\n`);
  }
}

function slowest(): void {
  let printed = false;
  for (const lane of LANES) {
    if (!existsSync(timingsFile(lane))) continue;
    const times = JSON.parse(readFileSync(timingsFile(lane), 'utf8')) as FileTime[];
    const total = times.reduce((sum, t) => sum + t.seconds, 0);
    console.log(`${lane} lane: ${times.length} files, ${total.toFixed(1)} s of file time`);
    for (const t of times.slice(0, SHOWN)) {
      const share = total > 0 ? (100 * t.seconds) / total : 0;
      console.log(`${t.seconds.toFixed(1).padStart(7)} s ${share.toFixed(1).padStart(5)} %  ${t.file}`);
    }
    printed = true;
  }
  if (!printed) console.log('no timings yet: `./svc test` writes them (.state/test/timings-<lane>.json)');
}

if (import.meta.main) {
  const command = process.argv[2];
  if (command === 'write') write();
  else if (command === 'slowest') slowest();
  else {
    console.error('usage: test-timings.ts write | slowest');
    process.exit(2);
  }
}
