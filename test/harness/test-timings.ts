/**
 * Per-file times of the test lanes, from jest's --json output (.state/test/jest-<lane>.json, or one
 * jest-<lane>-<part>.json per part of the lane, written by `./svc test`): `write` stores them as
 * .state/test/timings-<lane>.json (file, seconds, and the CPU seconds of the file with every process it started,
 * measured by test/harness/cpu-environment.js; slowest first); `slowest` (`npm run test:slowest`) prints each
 * lane's 15 slowest files with their share of the lane's file time (the sum over its files; with several jest
 * workers the lane's wall time is a fraction of it), and the 15 that used the most CPU (on 2 cores, CPU rather
 * than waiting is what a busy lane's time is made of).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { HARNESS_DIR } from './shared.ts';

const LANES = ['unit', 'integration'] as const;
const SHOWN = 15;

interface FileTime {
  file: string;
  seconds: number;
  /** CPU seconds of the file and every process it started (test/harness/cpu-environment.js), where measured. */
  cpuSeconds?: number;
}

interface JestJson {
  startTime: number;
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

/** The lane's jest outputs: the whole lane's, or each part's. */
const jestFiles = (lane: string) =>
  existsSync(HARNESS_DIR)
    ? readdirSync(HARNESS_DIR)
        .filter((name) => name === `jest-${lane}.json` || (name.startsWith(`jest-${lane}-`) && name.endsWith('.json')))
        .map((name) => resolve(HARNESS_DIR, name))
    : [];
const timingsFile = (lane: string) => resolve(HARNESS_DIR, `timings-${lane}.json`);

export function fileTimes(...runs: JestJson[]): FileTime[] {
  return runs
    .flatMap((run) => run.testResults)
    .map((result) => ({
      file: relative(PROJECT_ROOT, result.name),
      seconds: Math.max(0, result.endTime - result.startTime) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** Each file's CPU seconds from the lines cpu-environment.js appended (`{ file, cpuSeconds }` a line). */
export function withCpuSeconds(times: FileTime[], cpuLines: string): FileTime[] {
  const cpu = new Map<string, number>();
  for (const line of cpuLines.split('\n').filter(Boolean)) {
    const { file, cpuSeconds } = JSON.parse(line) as { file: string; cpuSeconds: number };
    cpu.set(file, cpuSeconds);
  }
  return times.map((time) => (cpu.has(time.file) ? { ...time, cpuSeconds: cpu.get(time.file)! } : time));
}

const CPU_FILE = resolve(HARNESS_DIR, 'cpu-times.jsonl');

function write(): void {
  const cpuLines = existsSync(CPU_FILE) ? readFileSync(CPU_FILE, 'utf8') : '';
  for (const lane of LANES) {
    const files = jestFiles(lane);
    if (files.length === 0) continue;
    const times = withCpuSeconds(
      fileTimes(...files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as JestJson)),
      cpuLines,
    );
    writeFileSync(timingsFile(lane), `${JSON.stringify(times, null, 1)}\n`);
  }
}

function slowest(): void {
  let printed = false;
  for (const lane of LANES) {
    if (!existsSync(timingsFile(lane))) continue;
    const times = JSON.parse(readFileSync(timingsFile(lane), 'utf8')) as FileTime[];
    const total = times.reduce((sum, t) => sum + t.seconds, 0);
    const cpuTotal = times.reduce((sum, t) => sum + (t.cpuSeconds ?? 0), 0);
    console.log(
      `${lane} lane: ${times.length} files, ${total.toFixed(1)} s of file time, ${cpuTotal.toFixed(1)} s of CPU`,
    );
    console.log('   file time  share      CPU  file');
    for (const t of times.slice(0, SHOWN)) {
      const share = total > 0 ? (100 * t.seconds) / total : 0;
      const cpu = t.cpuSeconds === undefined ? '' : `${t.cpuSeconds.toFixed(1)} s`;
      console.log(
        `${t.seconds.toFixed(1).padStart(9)} s ${share.toFixed(1).padStart(5)} % ${cpu.padStart(8)}  ${t.file}`,
      );
    }
    console.log('most CPU:');
    for (const t of [...times].sort((a, b) => (b.cpuSeconds ?? 0) - (a.cpuSeconds ?? 0)).slice(0, SHOWN))
      if (t.cpuSeconds !== undefined) console.log(`${t.cpuSeconds.toFixed(1).padStart(9)} s CPU  ${t.file}`);
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
