import { newPublicId, PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { classifyAddress } from '../../core/outbound.ts';
import { markFrames } from '../../core/scan/result.ts';
import { decryptSecret, encryptSecret } from '../../core/secrets.ts';
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

  it.each(['', 'example.com', 'javascript:alert(1)', 'https://', 'https://user@example.com/', 'https://exa mple.com/', 'https://-bad-.example/', `https://example.com/${'a'.repeat(3000)}`])('refuses %j', (input) => {
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

describe('secrets at rest', () => {
  const key = Buffer.alloc(32, 9);
  it('round-trip, and refuse another context, another key or a tampered value', () => {
    const stored = encryptSecret(key, 'p@ss', 'scan-credentials:a');
    expect(stored).not.toContain('p@ss');
    expect(decryptSecret(key, stored, 'scan-credentials:a')).toBe('p@ss');
    expect(() => decryptSecret(key, stored, 'scan-credentials:b')).toThrow();
    expect(() => decryptSecret(Buffer.alloc(32, 1), stored, 'scan-credentials:a')).toThrow();
    const parts = stored.split('.');
    parts[3] = Buffer.from('xxxx').toString('base64url');
    expect(() => decryptSecret(key, parts.join('.'), 'scan-credentials:a')).toThrow();
  });
});

describe('outbound address policy', () => {
  it.each([
    ['8.8.8.8', 'public'], ['127.0.0.1', 'loopback'], ['::1', 'loopback'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'], ['169.254.169.254', 'private'], ['100.64.0.1', 'private'], ['::ffff:10.0.0.1', 'private'],
    ['fd00::1', 'private'], ['fe80::1', 'private'], ['2606:4700::1111', 'public'], ['0.0.0.0', 'private'],
  ])('%s is %s', (address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
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
