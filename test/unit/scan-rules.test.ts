import { newPublicId, PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { markFrames } from '../../core/scan/result.ts';
import { normaliseScanUrl } from '../../core/url.ts';

describe('URL normalisation', () => {
  it.each([
    ['HTTPS://EXAMPLE.com', 'https://example.com/'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:8080/a/', 'http://example.com:8080/a/'],
    ['https://example.com/A/b/../c?q=1&a=2#frag', 'https://example.com/A/c?q=1&a=2'],
    ['https://example.com./', 'https://example.com/'],
    ['https://bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
    ['https://example.com/?', 'https://example.com/'],
    ['http://127.0.0.1:3000/x', 'http://127.0.0.1:3000/x'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseScanUrl(input)).toEqual({ ok: true, url: expected, host: new URL(expected).hostname });
  });

  it.each([
    '',
    'example.com',
    'javascript:alert(1)',
    'https://',
    'https://user@example.com/',
    'https://exa mple.com/',
    'https://-bad-.example/',
    `https://example.com/${'a'.repeat(3000)}`,
  ])('refuses %j', (input) => {
    expect(normaliseScanUrl(input).ok).toBe(false);
  });
});

describe('public ids', () => {
  it('are 26 characters of the documented alphabet and sort by creation time as text', () => {
    const ids = [0, 1, 1000, 86_400_000].map((offset) => newPublicId(new Date(Date.UTC(2026, 0, 1) + offset)));
    for (const id of ids) expect(id).toMatch(new RegExp(PUBLIC_ID_PATTERN));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => newPublicId())).size).toBe(1000);
  });
});

describe('filmstrip markers', () => {
  it('mark the first frame at or after FCP and LCP; LCP wins a shared frame', () => {
    const frames = [0, 100, 200, 300].map((ms) => ({ asset: `f${ms}.jpg`, ms }));
    expect(markFrames(frames, 150, 250).map((f) => f.event)).toEqual([null, null, 'fcp', 'lcp']);
    expect(markFrames(frames, 150, 180).map((f) => f.event)).toEqual([null, null, 'lcp', null]);
    expect(markFrames(frames, null, null).map((f) => f.event)).toEqual([null, null, null, null]);
  });
});
