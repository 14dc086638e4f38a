import { validateHeaderValue } from 'node:http';
import { replyExcerpt, RESPONSE_BODY_LIMIT, storableText } from '../../core/webhooks/delivery.ts';
import { decideSettingsChange, HEADER_VALUE_RULE, isHeaderValue } from '../../core/webhooks/endpoint.ts';
import { retriedWrite, type RecordRetry } from '../../services/webhook-recording.ts';

const form = (headerValue: string) => ({
  url: 'https://hooks.example.com/in',
  headerName: 'X-Secret',
  headerValue,
  events: [],
});
const nodeSends = (value: string) => {
  try {
    validateHeaderValue('x-secret', value);
    return true;
  } catch {
    return false;
  }
};

describe('the header value rule (RFC 9110 field-value), at save and at send', () => {
  const refused = [
    ['a control character (SOH)', 'abc\x01def'],
    ['BEL', 'token\x07'],
    ['ESC', '\x1b[31mred'],
    ['DEL', 'abc\x7f'],
    ['NUL', 'a\0b'],
    ['CR LF', 'a\r\nX-Evil: 1'],
    ['a line feed', 'a\nb'],
    ['a leading space', ' token'],
    ['a trailing tab', 'token\t'],
    ['only spaces', '   '],
    ['a character beyond Latin-1', 'tökén€'],
    ['more than 2000 characters', 'x'.repeat(2001)],
  ] as const;
  it.each(refused)('refuses %s', (_, value) => {
    expect(isHeaderValue(value)).toBe(false);
    expect(decideSettingsChange(form(value), false)).toEqual({ errors: { header_value: HEADER_VALUE_RULE } });
  });

  const accepted = [
    's3cret',
    'Bearer abc.def-ghi_jkl~',
    'a b\tc',
    'x',
    'obs-text ÿé',
    "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    'x'.repeat(2000),
  ];
  it.each(accepted.map((value) => [value.length > 40 ? `${value.length} characters` : JSON.stringify(value), value]))(
    'accepts %s, and Node sends it',
    (_, value) => {
      expect(isHeaderValue(value)).toBe(true);
      expect(nodeSends(value)).toBe(true);
      expect(decideSettingsChange(form(value), false)).toMatchObject({
        change: { headerValue: { kind: 'set', value } },
      });
    },
  );

  it('everything Node refuses to send is refused by the rule', () => {
    for (let code = 0; code <= 0x2ff; code++) {
      const value = `a${String.fromCharCode(code)}b`;
      if (!nodeSends(value)) expect(isHeaderValue(value)).toBe(false);
    }
  });
});

describe('reply excerpts', () => {
  it('replace NUL and invalid UTF-8 with U+FFFD', () => {
    expect(replyExcerpt(Buffer.from('ok\0nul'))).toBe('ok\uFFFDnul');
    expect(replyExcerpt(Buffer.from([0x6f, 0x6b, 0xc0, 0x80, 0xff, 0xed, 0xa0, 0x80]))).toBe('ok' + '\uFFFD'.repeat(6));
    expect(replyExcerpt(Buffer.from('grüße ✓'))).toBe('grüße ✓');
    expect(storableText('a\0b\0')).toBe('a\uFFFDb\uFFFD');
  });

  it('keep the first 1 KB and drop a character the limit cuts in two', () => {
    expect(replyExcerpt(Buffer.from('x'.repeat(5000)))).toHaveLength(RESPONSE_BODY_LIMIT);
    const cut = Buffer.concat([Buffer.from('x'.repeat(RESPONSE_BODY_LIMIT - 1)), Buffer.from('€')]);
    expect(replyExcerpt(cut)).toBe('x'.repeat(RESPONSE_BODY_LIMIT - 1));
  });
});

describe('recording after a send (retriedWrite)', () => {
  const quick: RecordRetry = { delaysMs: [5, 10, 20], tryTimeoutMs: 200, budgetMs: 1000 };
  const refused = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
  const connectionLost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

  it('a value Postgres refuses: at once a try without it, which is recorded', async () => {
    const calls: boolean[] = [];
    const result = await retriedWrite(
      quick,
      Date.now() + quick.budgetMs,
      async (valueRefused) => {
        calls.push(valueRefused);
        if (!valueRefused) throw refused;
        return 'recorded';
      },
      () => undefined,
    );
    expect(result).toEqual({ ok: true, value: 'recorded' });
    expect(calls).toEqual([false, true]);
  });

  it('a lost connection: tried again after each wait until it works, with every value', async () => {
    const calls: boolean[] = [];
    const failures: number[] = [];
    const result = await retriedWrite(
      quick,
      Date.now() + quick.budgetMs,
      async (valueRefused) => {
        calls.push(valueRefused);
        if (calls.length < 3) throw connectionLost;
        return 'recorded';
      },
      (_, tries) => failures.push(tries),
    );
    expect(result).toEqual({ ok: true, value: 'recorded' });
    expect(calls).toEqual([false, false, false]);
    expect(failures).toEqual([1, 2]);
  });

  it('never throws: the waits run out, or the deadline passes, and the last error is returned', async () => {
    let tries = 0;
    const exhausted = await retriedWrite(
      quick,
      Date.now() + quick.budgetMs,
      async () => {
        tries += 1;
        throw connectionLost;
      },
      () => undefined,
    );
    expect(exhausted).toEqual({ ok: false, error: connectionLost });
    expect(tries).toBe(quick.delaysMs.length + 1);
    tries = 0;
    expect(
      await retriedWrite(
        quick,
        Date.now(),
        async () => {
          tries += 1;
          throw connectionLost;
        },
        () => undefined,
      ),
    ).toEqual({ ok: false, error: connectionLost });
    expect(tries).toBe(1);
  });

  it('a try that hangs is given up after its timeout and the next one made', async () => {
    let tries = 0;
    const result = await retriedWrite(
      quick,
      Date.now() + quick.budgetMs,
      () => (++tries === 1 ? new Promise<string>(() => undefined) : Promise.resolve('recorded')),
      () => undefined,
    );
    expect(result).toEqual({ ok: true, value: 'recorded' });
    expect(tries).toBe(2);
  });
});
