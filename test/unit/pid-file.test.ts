import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processStartTime, readPid } from '../../stack/proc.ts';

describe('pid files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webperf-pid-'));
  const file = join(dir, 'server.pid');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('name a running process only while that very process runs (its start time must match)', () => {
    const started = processStartTime(process.pid);
    expect(started).toMatch(/^\d+$/);
    writeFileSync(file, `${process.pid} ${started}\n`);
    expect(readPid(file)).toBe(process.pid);
    // The same pid, reused by another process after a reboot: not ours, never signalled.
    writeFileSync(file, `${process.pid} ${Number(started) + 1}\n`);
    expect(readPid(file)).toBeNull();
    // Files written before start times were recorded still work.
    writeFileSync(file, `${process.pid}\n`);
    expect(readPid(file)).toBe(process.pid);
    writeFileSync(file, 'garbage');
    expect(readPid(file)).toBeNull();
  });
});
