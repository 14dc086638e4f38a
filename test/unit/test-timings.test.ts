import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { fileTimes, withCpuSeconds } from '../harness/test-timings.ts';

test("each file's time is its end less its start in jest's --json output, slowest first, by its path in the checkout", () => {
  const run = {
    startTime: 1_000,
    testResults: [
      { name: resolve(PROJECT_ROOT, 'test/a.test.ts'), startTime: 1_000, endTime: 4_500 },
      { name: resolve(PROJECT_ROOT, 'test/b.test.ts'), startTime: 1_200, endTime: 61_200 },
      { name: resolve(PROJECT_ROOT, 'test/c.test.ts'), startTime: 5_000, endTime: 5_250 },
    ],
  };
  expect(fileTimes(run)).toEqual([
    { file: 'test/b.test.ts', seconds: 60 },
    { file: 'test/a.test.ts', seconds: 3.5 },
    { file: 'test/c.test.ts', seconds: 0.25 },
  ]);
});

test("a lane run in parts: the parts' files together, slowest first", () => {
  const part = (name: string, seconds: number) => ({
    startTime: 0,
    testResults: [{ name: resolve(PROJECT_ROOT, name), startTime: 0, endTime: seconds * 1000 }],
  });
  expect(fileTimes(part('test/lighthouse.test.ts', 30), part('test/services.test.ts', 45))).toEqual([
    { file: 'test/services.test.ts', seconds: 45 },
    { file: 'test/lighthouse.test.ts', seconds: 30 },
  ]);
});

test("each file's CPU seconds join its time, where the environment measured them", () => {
  const times = [
    { file: 'test/a.test.ts', seconds: 10 },
    { file: 'test/b.test.ts', seconds: 5 },
  ];
  const lines = `${JSON.stringify({ file: 'test/b.test.ts', cpuSeconds: 7.5 })}\n`;
  expect(withCpuSeconds(times, lines)).toEqual([
    { file: 'test/a.test.ts', seconds: 10 },
    { file: 'test/b.test.ts', seconds: 5, cpuSeconds: 7.5 },
  ]);
});
