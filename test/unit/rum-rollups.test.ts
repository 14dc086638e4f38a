import { periodWindow } from '../../core/rum/periods.ts';
import { planRollupWindow, RESEND_GRACE_DAYS, utcDay } from '../../core/rum/rollups.ts';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
const days = (from: string, count: number) =>
  new Set(Array.from({ length: count }, (_, i) => utcDay(new Date(at(`${from}T00:00:00Z`).getTime() + i * DAY))));

describe('long periods are whole UTC days plus today', () => {
  const now = at('2026-11-27T06:30:12.400Z');
  it('7d and 30d start at a midnight, 24h stays rolling', () => {
    expect(periodWindow('24h', now)).toEqual({ from: at('2026-11-26T06:30:13Z'), to: at('2026-11-27T06:30:13Z') });
    expect(periodWindow('7d', now)).toEqual({ from: at('2026-11-20T00:00:00Z'), to: at('2026-11-27T06:30:13Z') });
    expect(periodWindow('30d', now)).toEqual({ from: at('2026-10-28T00:00:00Z'), to: at('2026-11-27T06:30:13Z') });
  });
});

describe('planRollupWindow', () => {
  const now = at('2026-11-27T06:30:12Z');
  const window = periodWindow('30d', now);

  it('reads rolled-up whole days from rollups and today from raw rows, leaving out values seen the day before', () => {
    const plan = planRollupWindow(window, days('2026-10-28', 30));
    expect(plan.rollupDays).toEqual([{ from: at('2026-10-28T00:00:00Z'), to: at('2026-11-27T00:00:00Z') }]);
    expect(plan.raw).toEqual([
      {
        from: at('2026-11-27T00:00:00Z'),
        to: window.to,
        excludeSeenFrom: new Date(at('2026-11-27T00:00:00Z').getTime() - RESEND_GRACE_DAYS * DAY),
      },
    ]);
  });

  it('reads days not rolled up yet from raw rows, joined with their neighbours', () => {
    const rolled = days('2026-10-28', 30);
    rolled.delete('2026-11-26'); // yesterday not built yet
    rolled.delete('2026-11-01');
    rolled.delete('2026-11-02');
    const plan = planRollupWindow(window, rolled);
    expect(plan.rollupDays).toEqual([
      { from: at('2026-10-28T00:00:00Z'), to: at('2026-11-01T00:00:00Z') },
      { from: at('2026-11-03T00:00:00Z'), to: at('2026-11-26T00:00:00Z') },
    ]);
    expect(plan.raw.map((s) => [s.from.toISOString(), s.to.toISOString(), s.excludeSeenFrom?.toISOString()])).toEqual([
      ['2026-11-01T00:00:00.000Z', '2026-11-03T00:00:00.000Z', '2026-10-31T00:00:00.000Z'],
      ['2026-11-26T00:00:00.000Z', window.to.toISOString(), '2026-11-25T00:00:00.000Z'],
    ]);
  });

  it('a window that starts mid-day reads its first part raw, without exclusion', () => {
    const plan = planRollupWindow(
      { from: at('2026-11-10T12:00:00Z'), to: at('2026-11-20T00:00:00Z') },
      days('2026-11-01', 30),
    );
    expect(plan.raw).toEqual([
      { from: at('2026-11-10T12:00:00Z'), to: at('2026-11-11T00:00:00Z'), excludeSeenFrom: null },
    ]);
    expect(plan.rollupDays).toEqual([{ from: at('2026-11-11T00:00:00Z'), to: at('2026-11-20T00:00:00Z') }]);
  });

  it('nothing rolled up, or a window under 7 days: all raw', () => {
    expect(planRollupWindow(window, new Set())).toEqual({
      rollupDays: [],
      todayUntil: null,
      raw: [{ ...window, excludeSeenFrom: null }],
    });
    const day = periodWindow('24h', now);
    expect(planRollupWindow(day, days('2026-10-01', 60), [at('2026-11-27T06:00:00Z')])).toEqual({
      rollupDays: [],
      todayUntil: null,
      raw: [{ ...day, excludeSeenFrom: null }],
    });
  });

  it("reads today's latest snapshot up to its cutoff, then raw rows leaving out values seen since the day before", () => {
    const cutoffs = [at('2026-11-27T05:00:00Z'), at('2026-11-27T06:00:00Z'), at('2026-11-26T23:00:00Z')];
    const plan = planRollupWindow(window, days('2026-10-28', 30), cutoffs);
    expect(plan.rollupDays).toEqual([{ from: at('2026-10-28T00:00:00Z'), to: at('2026-11-27T00:00:00Z') }]);
    expect(plan.todayUntil).toEqual(at('2026-11-27T06:00:00Z'));
    expect(plan.raw).toEqual([
      { from: at('2026-11-27T06:00:00Z'), to: window.to, excludeSeenFrom: at('2026-11-26T00:00:00Z') },
    ]);
  });

  it('a snapshot after yesterday not rolled up: yesterday raw, then the snapshot, then raw from its cutoff', () => {
    const rolled = days('2026-10-28', 29); // up to 2026-11-25
    const plan = planRollupWindow(window, rolled, [at('2026-11-27T03:00:00Z')]);
    expect(plan.todayUntil).toEqual(at('2026-11-27T03:00:00Z'));
    expect(plan.raw.map((s) => [s.from.toISOString(), s.to.toISOString(), s.excludeSeenFrom?.toISOString()])).toEqual([
      ['2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z', '2026-11-25T00:00:00.000Z'],
      ['2026-11-27T03:00:00.000Z', window.to.toISOString(), '2026-11-26T00:00:00.000Z'],
    ]);
  });

  it('ignores cutoffs of other days, at midnight and after the end of the window', () => {
    const plan = planRollupWindow(window, days('2026-10-28', 30), [
      at('2026-11-27T07:00:00Z'),
      at('2026-11-27T00:00:00Z'),
      at('2026-11-26T12:00:00Z'),
    ]);
    expect(plan.todayUntil).toBeNull();
    expect(plan.raw).toHaveLength(1);
    expect(plan.raw[0]!.from).toEqual(at('2026-11-27T00:00:00Z'));
  });
});
