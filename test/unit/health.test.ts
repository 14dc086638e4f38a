import { sharedCheck } from '../../core/health.ts';

describe('sharedCheck', () => {
  it('runs a costly check at most once per window, sharing the run (and its failure) with every caller meanwhile', async () => {
    let now = 0;
    let runs = 0;
    let fail = false;
    const check = sharedCheck(async () => {
      runs++;
      if (fail) throw new Error('down');
    }, 5000, () => now);
    await Promise.all(Array.from({ length: 20 }, () => check()));
    expect(runs).toBe(1);
    now = 4999;
    await check();
    expect(runs).toBe(1);
    now = 5000;
    fail = true;
    await expect(check()).rejects.toThrow('down');
    now = 6000;
    await expect(check()).rejects.toThrow('down');
    expect(runs).toBe(2);
  });
});
