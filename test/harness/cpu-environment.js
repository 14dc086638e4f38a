import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TestEnvironment } from 'jest-environment-node';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds used by this process and by the children it has reaped (and, through them, theirs): utime, stime,
 * cutime and cstime of /proc/self/stat. Null where there is no /proc.
 */
function processTreeCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name (which may hold spaces), from field 3 on: utime is field 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Jest's node environment, measuring how much CPU each test file costs: the jest worker's own and that of every
 * process the file started and stopped (api, worker and ingest processes, runners, Chromium), from the
 * environment's setup to its teardown, after the file's last hook. Appended to .state/test/cpu-times.jsonl;
 * `./svc test` puts the figures beside each file's time (test/harness/test-timings.ts).
 */
export default class CpuMeasuringEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.rootDir = config.projectConfig.rootDir;
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.cpuAtStart = processTreeCpuSeconds();
  }

  async teardown() {
    const now = processTreeCpuSeconds();
    if (now !== null && this.cpuAtStart !== null) {
      const folder = join(this.rootDir, '.state', 'test');
      mkdirSync(folder, { recursive: true });
      const line = {
        file: relative(this.rootDir, this.testPath),
        cpuSeconds: Math.round((now - this.cpuAtStart) * 100) / 100,
      };
      appendFileSync(join(folder, 'cpu-times.jsonl'), `${JSON.stringify(line)}\n`);
    }
    await super.teardown();
  }
}
