import { Webhook } from 'standardwebhooks';
import { nextDelayMs, parseRetryAfter, RETRY_DELAYS_MS } from '../../core/webhooks/delivery.ts';
import { decideSettingsChange } from '../../core/webhooks/endpoint.ts';
import { newSigningSecret, signedHeaders } from '../../core/webhooks/signing.ts';
import { payloadProblems, WEBHOOK_PAYLOAD_SCHEMAS } from '../../core/webhooks/schemas.ts';
import type { RumAlertPayload } from '../../core/webhooks/events.ts';

const form = (overrides: Partial<Parameters<typeof decideSettingsChange>[0]> = {}) => ({
  url: 'https://hooks.example.com/in',
  headerName: '',
  headerValue: '',
  events: [],
  ...overrides,
});

describe('webhook signatures', () => {
  test('the standardwebhooks package verifies them, with either secret during a rotation', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ event: 'ping', message: 'hello', sent_at: '2026-11-26T10:00:00+00:00' });
    const headers = signedHeaders([current, previous], 'msg_1', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(current).verify(body.replace('hello', 'hellp'), { ...headers })).toThrow();
  });
});

describe('retry schedule', () => {
  test('immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then over', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((failed) => nextDelayMs(failed, null));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, null]);
    expect(RETRY_DELAYS_MS).toHaveLength(7);
  });

  test('Retry-After is honoured when longer than the schedule, up to 10 h', () => {
    expect(nextDelayMs(1, 60_000)).toBe(60_000);
    expect(nextDelayMs(3, 60_000)).toBe(1_800_000);
    expect(nextDelayMs(1, 7 * 86_400_000)).toBe(36_000_000);
    expect(parseRetryAfter('120', new Date())).toBe(120_000);
    expect(parseRetryAfter('Thu, 26 Nov 2026 10:01:00 GMT', new Date('2026-11-26T10:00:00Z'))).toBe(60_000);
    expect(parseRetryAfter('soon', new Date())).toBeNull();
  });
});

describe('settings save rules', () => {
  test('an empty header name removes the header, whatever the value field says', () => {
    expect(decideSettingsChange(form({ headerName: '', headerValue: 'secret' }), true)).toEqual({
      change: { url: 'https://hooks.example.com/in', headerName: null, headerValue: { kind: 'clear' }, events: [] },
    });
  });

  test('an empty value keeps the stored one; a new value replaces it; no value stored and none given is an error', () => {
    expect(decideSettingsChange(form({ headerName: 'X-Secret', headerValue: '' }), true)).toMatchObject({
      change: { headerName: 'X-Secret', headerValue: { kind: 'keep' } },
    });
    expect(decideSettingsChange(form({ headerName: 'X-Secret', headerValue: 'new' }), true)).toMatchObject({
      change: { headerValue: { kind: 'set', value: 'new' } },
    });
    expect(decideSettingsChange(form({ headerName: 'X-Secret', headerValue: '' }), false)).toEqual({
      errors: { header_value: expect.any(String) },
    });
  });

  test('refuses header names that are not tokens or that the service sets, values with line breaks, bad URLs and unknown events', () => {
    expect(decideSettingsChange(form({ headerName: 'X Secret', headerValue: 'v' }), false)).toEqual({
      errors: { header_name: expect.any(String) },
    });
    expect(decideSettingsChange(form({ headerName: 'Webhook-Signature', headerValue: 'v' }), false)).toEqual({
      errors: { header_name: expect.any(String) },
    });
    expect(decideSettingsChange(form({ headerName: 'X-Secret', headerValue: 'a\r\nX-Evil: 1' }), false)).toEqual({
      errors: { header_value: expect.any(String) },
    });
    expect(decideSettingsChange(form({ url: 'ftp://example.com/' }), false)).toEqual({
      errors: { url: expect.any(String) },
    });
    expect(decideSettingsChange(form({ url: 'https://user:pw@example.com/' }), false)).toEqual({
      errors: { url: expect.any(String) },
    });
    expect(decideSettingsChange(form({ events: ['scan.completed', 'scan.started'] }), false)).toEqual({
      errors: { events: expect.any(String) },
    });
  });

  test('an empty URL clears it; events are kept once each', () => {
    expect(
      decideSettingsChange(
        form({ url: '  ', events: ['alert.triggered', 'alert.triggered', 'rum.alert.resolved'] }),
        false,
      ),
    ).toEqual({
      change: {
        url: null,
        headerName: null,
        headerValue: { kind: 'clear' },
        events: ['alert.triggered', 'rum.alert.resolved'],
      },
    });
  });
});

describe('payload schemas', () => {
  const rum: RumAlertPayload = {
    event: 'rum.alert.triggered',
    alert_name: 'Slow LCP',
    domain: 'shop.example.com',
    metric: 'LCP',
    p75: 3120.5,
    threshold: 2500,
    unit: 'ms',
    samples: 412,
    window_minutes: 30,
    triggered_at: '2026-11-26T10:00:00+00:00',
    rum_dashboard_url: 'https://perf.example.com/live/3',
  };

  test("every event's payload schema compiles, and refuses a payload of the wrong shape", () => {
    const events = Object.keys(WEBHOOK_PAYLOAD_SCHEMAS) as Array<keyof typeof WEBHOOK_PAYLOAD_SCHEMAS>;
    expect(events.length).toBeGreaterThan(5);
    for (const event of events)
      expect({ event, problems: payloadProblems(event, {} as never) }).toEqual({
        event,
        problems: expect.stringContaining('must have required property'),
      });
  });

  test('the live-data payloads (defined now, sent once the live-data alert check exists) validate', () => {
    expect(payloadProblems('rum.alert.triggered', rum)).toBeNull();
    const { triggered_at: _, ...rest } = rum;
    expect(
      payloadProblems('rum.alert.resolved', {
        ...rest,
        event: 'rum.alert.resolved',
        resolved_at: '2026-11-26T11:00:00+00:00',
      }),
    ).toBeNull();
    // resolved_at instead of triggered_at, not beside it.
    expect(
      payloadProblems('rum.alert.resolved', {
        ...rum,
        event: 'rum.alert.resolved',
        resolved_at: '2026-11-26T11:00:00+00:00',
      }),
    ).toMatch(/additional properties/);
  });

  test('a payload off its schema is caught before sending', () => {
    expect(payloadProblems('rum.alert.triggered', { ...rum, samples: 1.5 })).toMatch(/samples must be integer/);
    expect(payloadProblems('rum.alert.triggered', { ...rum, event: 'rum.alert.resolved' })).toMatch(
      /event must be equal to constant/,
    );
    expect(payloadProblems('ping', { event: 'ping', message: 'hi', sent_at: 'yesterday' })).toMatch(/date-time/);
  });
});
