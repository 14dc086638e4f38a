import { isStorableText, percentDecode, undecodableField, unstorableField } from '../../http/input-guard.ts';

describe('well-formed text (http/input-guard.ts)', () => {
  it.each(['\ud800', '\udc00', '\udc00\ud800', 'a\ud83d', 'a\u0000b'])('refuses %j', (text) => {
    expect(isStorableText(text)).toBe(false);
    expect(unstorableField({ a: [{ b: text }] }, 'body')).toBe('a.0.b');
  });

  it.each(['', 'plain', 'pä ss:wörd', '💩', '\ud83d\udca9'])('accepts %j', (text) => {
    expect(isStorableText(text)).toBe(true);
  });

  it('percent-decodes as the URL standard does, or null for bytes that are not UTF-8', () => {
    expect(percentDecode('a%20b+c')).toBe('a b c');
    expect(percentDecode('100%')).toBe('100%');
    expect(percentDecode('%zz%4')).toBe('%zz%4');
    expect(percentDecode('%F0%9F%92%A9')).toBe('💩');
    for (const bad of ['%ED%A0%80', '%ED%B0%80', '%ED%B0%80%ED%A0%80', '%FF', '%C0%80', '%F0%9F%92']) {
      expect(percentDecode(bad)).toBeNull();
    }
  });

  it('names the first urlencoded field whose name or value is not UTF-8', () => {
    expect(undecodableField('a=1&b=%ED%A0%80&c=%FF')).toBe('b');
    expect(undecodableField('a=1&%FF=2')).toBe('\ufffd');
    expect(undecodableField('a=100%&b=%41&&c')).toBeNull();
  });
});
