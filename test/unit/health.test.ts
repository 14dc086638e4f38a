import { HealthState, sharedCheck } from '../../infra/health.ts';

describe('sharedCheck', () => {
  it('runs a costly check at most once per window, sharing the run (and its failure) with every caller meanwhile', async () => {
    let now = 0;
    let runs = 0;
    let fail = false;
    const check = sharedCheck(
      async () => {
        runs++;
        if (fail) throw new Error('down');
      },
      5000,
      () => now,
    );
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

describe('HealthState', () => {
  it('reports an informational check without letting it decide readiness; the others still do', async () => {
    let spoolOk = true;
    const state = new HealthState(
      {
        clickhouse: async () => {
          throw new Error('connect ECONNREFUSED');
        },
        spool: async () => {
          if (!spoolOk) throw new Error('full');
        },
      },
      undefined,
      1000,
      ['clickhouse'],
    );
    expect(await state.readiness()).toEqual({
      ready: true,
      status: 'ready',
      checks: { clickhouse: 'failing', spool: 'ok' },
    });
    spoolOk = false;
    expect(await state.readiness()).toEqual({
      ready: false,
      status: 'not_ready',
      checks: { clickhouse: 'failing', spool: 'failing' },
    });
  });
});
