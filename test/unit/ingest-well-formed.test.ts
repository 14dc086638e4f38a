import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clickhouseErrorCode, refusedForContent } from '../../db/clickhouse/client.ts';
import { DeadLetter, readDeadLetter } from '../../ingest/dead-letter.ts';
import { Rejection } from '../../ingest/reasons.ts';
import { validateBeacon } from '../../ingest/validate.ts';

/** Text that is not well-formed Unicode is refused whatever field carries it; ClickHouse's refusals are told apart. */

const POISONS = ['\ud800', '\udc00', '\udc00\ud800', 'a\ud83d', '\ud83dx'];

function wire(): Record<string, unknown> {
  return {
    v: 1,
    site: '0123456789abcdefghjk',
    pv: 'abcdefghijklmnopqrstuvwx',
    seq: 1,
    path: '/products/shoes',
    device: 'mobile',
    rate: 100,
    metrics: [
      {
        name: 'LCP',
        value: 2000,
        id: 'v5-lcp',
        nav: 'navigate',
        target: 'main > img.hero',
        url: 'https://cdn.example.com/hero.jpg',
      },
      {
        name: 'INP',
        value: 300,
        id: 'v5-inp',
        nav: 'navigate',
        target: 'button#buy',
        type: 'pointer',
        scripts: [{ src: 'https://cdn.example.com/cart.js', fn: 'addToCart', inv: 'event-listener', dur: 120 }],
      },
    ],
  };
}

type Wire = ReturnType<typeof wire> & {
  metrics: Array<Record<string, unknown> & { scripts?: Array<Record<string, unknown>> }>;
};

const PLACES: Array<[string, (b: Wire, text: string) => void]> = [
  ['path', (b, t) => (b.path = `/x${t}`)],
  ['LCP element selector', (b, t) => (b.metrics[0]!.target = `#hero${t}`)],
  ['LCP resource URL', (b, t) => (b.metrics[0]!.url = `https://cdn.example.com/${t}.jpg`)],
  ['INP element selector', (b, t) => (b.metrics[1]!.target = `button.${t}`)],
  ['interaction type', (b, t) => (b.metrics[1]!.type = t)],
  ['script function name', (b, t) => (b.metrics[1]!.scripts![0]!.fn = t)],
  ['script URL', (b, t) => (b.metrics[1]!.scripts![0]!.src = `https://cdn.example.com/${t}.js`)],
  ['metric id', (b, t) => (b.metrics[0]!.id = `v5-${t}`)],
  ['page view id', (b, t) => (b.pv = `abcdefghijklmnopqrstuv${t}`)],
  ['an unknown key', (b, t) => (b[`extra${t}`] = 1)],
  ['an unknown value', (b, t) => (b.extra = [{ deep: t }])],
];

describe('well-formed text at the door', () => {
  it('refuses a lone or reversed surrogate in every field with bad_text, after the JSON text itself was valid', () => {
    for (const [place, put] of PLACES) {
      for (const poison of POISONS) {
        const body = wire() as Wire;
        put(body, poison);
        // What arrives on the wire: JSON.stringify writes a lone surrogate as a \ud800 escape (valid JSON, valid UTF-8).
        const parsed = JSON.parse(JSON.stringify(body)) as unknown;
        const result = validateBeacon(parsed);
        expect({
          place,
          poison: escape(poison),
          reason: result instanceof Rejection ? result.reason : 'accepted',
        }).toEqual({ place, poison: escape(poison), reason: 'bad_text' });
      }
    }
  });

  it('accepts well-formed text outside the BMP (a surrogate pair) and other scripts', () => {
    const body = wire() as Wire;
    body.path = '/caf\u00e9/\u{1F600}/\u65e5\u672c';
    body.metrics[1]!.scripts![0]!.fn = '\u{1D4B3}unction';
    body.metrics[0]!.target = 'img.\u{1F680}';
    const result = validateBeacon(JSON.parse(JSON.stringify(body)));
    expect(result).not.toBeInstanceOf(Rejection);
    expect(result).toMatchObject({ path: '/caf\u00e9/\u{1F600}/\u65e5\u672c' });
  });
});

const escape = (text: string) => JSON.stringify(text);

describe("ClickHouse's refusals", () => {
  // Messages as ClickHouse 18.16 answers an INSERT ... FORMAT JSONEachRow (the client passes them on unparsed).
  const refused = [
    'Code: 25, e.displayText() = DB::Exception: Cannot parse escape sequence: missing second part of surrogate pair: (while read the value of key path), e.what() = DB::Exception',
    'Code: 27, e.displayText() = DB::Exception: Cannot parse input: expected " before: x: (while read the value of key n): (at row 1)',
    'Code: 117, e.displayText() = DB::Exception: Unknown field found while parsing JSONEachRow format: zzz: (at row 1)',
    "Code: 49, e.displayText() = DB::Exception: Unknown element 'zz' for type Enum8('a' = 1): (while read the value of key e), e.what() = DB::Exception",
  ];
  const notContent: unknown[] = [
    new Error(
      "Code: 60, e.displayText() = DB::Exception: Table webperf.rum_metrics doesn't exist., e.what() = DB::Exception",
    ),
    new Error('Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded'),
    new Error(
      'Code: 252, e.displayText() = DB::Exception: Too many parts (300). Merges are processing significantly slower than inserts.',
    ),
    new Error('Code: 49, e.displayText() = DB::Exception: Logical error: something else'),
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' }),
    new Error('Timeout error.'),
    new Error('socket hang up'),
    null,
  ];

  it('counts parse errors of the rows as refused for their content', () => {
    for (const message of refused)
      expect({ message, content: refusedForContent(new Error(message)) }).toEqual({ message, content: true });
    // A newer client parses the code into `code`.
    expect(refusedForContent(Object.assign(new Error('Cannot parse escape sequence'), { code: '25' }))).toBe(true);
    expect(clickhouseErrorCode(new Error(refused[0]))).toBe(25);
  });

  it("never counts an outage, an overload or a missing table as the rows' fault (those are retried, never set aside)", () => {
    for (const error of notContent)
      expect({ error: String(error), content: refusedForContent(error) }).toEqual({
        error: String(error),
        content: false,
      });
  });
});

describe('the dead letter', () => {
  it("appends each refused row with the time and ClickHouse's words, keeping the spooled line exactly", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dead-letter-'));
    try {
      const letter = new DeadLetter(dir);
      const row = `${JSON.stringify({ site_id: 7, path: '/x\ud83d', script_functions: ['\ud800'] })}`;
      await letter.add([{ row, error: 'Code: 25, Cannot parse escape sequence\n' }], new Date('2026-11-29T01:00:00Z'));
      await letter.add([{ row: '{"site_id":8}', error: 'x'.repeat(2000) }], new Date('2026-11-29T01:00:01Z'));
      const entries = readDeadLetter(letter.file);
      expect(entries).toEqual([
        { at: '2026-11-29T01:00:00.000Z', error: 'Code: 25, Cannot parse escape sequence', row },
        { at: '2026-11-29T01:00:01.000Z', error: 'x'.repeat(500), row: '{"site_id":8}' },
      ]);
      expect(row).toContain('\\ud83d');
      expect(readDeadLetter(join(dir, 'none.jsonl'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
