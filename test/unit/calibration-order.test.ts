import { calibrationPage, checkOrder, measuredBetter, type CalibrationRow } from '../../fixtures/calibration.ts';

/** The calibration order check on made-up rows: it must find what is out of order, or the bench proves nothing. */

function row(name: string, lcpMs: number, scores: { speed: number; overall: number }, lighthouse = scores.speed) {
  const metrics = { fcpMs: 500, lcpMs, tbtMs: 0, cls: 0, speedIndexMs: 800 };
  return {
    page: calibrationPage(name, { wordpress: name === 'wp' }),
    scores: { overall: scores.overall, speed: scores.speed, images: 100, caching: 100, technical: 100, wordpress: 100 },
    notApplicable: [],
    isWordPress: name === 'wp',
    findingCodes: [],
    lighthouse: { desktop: lighthouse, mobile: lighthouse },
    metrics: { desktop: metrics, mobile: metrics },
  } satisfies CalibrationRow;
}

it('orders pairs only when every metric is no worse and one is better', () => {
  const a = row('a', 1000, { speed: 90, overall: 90 });
  const b = row('b', 2000, { speed: 80, overall: 80 });
  expect(measuredBetter(a, b)).toBe(true);
  expect(measuredBetter(b, a)).toBe(false);
  expect(measuredBetter(a, a)).toBe(false);
  const crossing = { ...b, metrics: { ...b.metrics, desktop: { ...b.metrics.desktop, tbtMs: -1 } } };
  expect(measuredBetter(a, crossing)).toBe(false);
});

it('finds speed and overall out of the measured order, and speed away from Lighthouse', () => {
  const rows = [
    row('fast', 1000, { speed: 70, overall: 95 }),
    row('slow', 3000, { speed: 80, overall: 96 }, 60),
    row('wp', 5000, { speed: 60, overall: 99 }),
  ];
  expect(checkOrder(rows)).toEqual({
    ordered: [
      ['fast', 'slow'],
      ['fast', 'wp'],
      ['slow', 'wp'],
    ],
    speedViolations: [['fast', 'slow']],
    // The WordPress page is judged in a category the others are not: left out of the overall order.
    overallViolations: [['fast', 'slow']],
    offLighthouse: ['slow'],
  });
});

it('leaves overall alone when the better page comes later in the set (it may have more faults)', () => {
  const rows = [row('earlier', 3000, { speed: 80, overall: 99 }), row('later', 1000, { speed: 90, overall: 90 })];
  expect(checkOrder(rows)).toMatchObject({
    ordered: [['later', 'earlier']],
    speedViolations: [],
    overallViolations: [],
  });
});
