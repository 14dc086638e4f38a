/**
 * The redaction rule for secrets (an authenticated scan's credentials, a flow's secrets) in everything a scan or a
 * flow run keeps or sends. A page may echo a secret in many encodings, and Lighthouse cuts snippets and labels
 * short, so the rule is not "find the value": it replaces every run of at least MIN_SECRET_RUN consecutive
 * characters of a secret (the whole secret when it is shorter) written in any mix, character by character, of:
 * the characters themselves; percent-encoding of their UTF-8 bytes in either case (`%C3%A9`, `%c3%a9`), a Latin-1
 * byte (`%E9`) or `%uXXXX`; `+` for a space (application/x-www-form-urlencoded); HTML character references,
 * decimal, hex (either case, leading zeros, with or without the `;`) or named (ASCII punctuation and Latin-1);
 * JSON and JavaScript string escapes (`\"`, `\\`, `\/`, `\uXXXX` with surrogate pairs, `\xXX`); and each of these
 * once more inside another (`%26amp%3B`, `\u0026quot;`). docs/security.md#secrets states it for users.
 */

/** What stands where a secret was. */
export const REDACTED = '[redacted]';

/** The shortest run of a secret's characters that is redacted (Lighthouse's snippets are cut at about 75). */
export const MIN_SECRET_RUN = 12;

/** How many encodings deep one character may be written (`&` as `%26amp%3B` is two). */
const DEPTH = 2;

interface Decoded {
  cp: number;
  end: number;
}

const NAMED_ENTITIES: Record<string, number> = (() => {
  const ascii: Record<string, string> = {
    excl: '!',
    quot: '"',
    QUOT: '"',
    num: '#',
    dollar: '$',
    percnt: '%',
    amp: '&',
    AMP: '&',
    apos: "'",
    lpar: '(',
    rpar: ')',
    ast: '*',
    midast: '*',
    plus: '+',
    comma: ',',
    period: '.',
    sol: '/',
    colon: ':',
    semi: ';',
    lt: '<',
    LT: '<',
    equals: '=',
    gt: '>',
    GT: '>',
    quest: '?',
    commat: '@',
    lsqb: '[',
    lbrack: '[',
    bsol: '\\',
    rsqb: ']',
    rbrack: ']',
    Hat: '^',
    lowbar: '_',
    UnderBar: '_',
    grave: '`',
    DiacriticalGrave: '`',
    lcub: '{',
    lbrace: '{',
    verbar: '|',
    vert: '|',
    VerticalLine: '|',
    rcub: '}',
    rbrace: '}',
    Tab: '\t',
    NewLine: '\n',
    euro: '€',
  };
  const latin1 =
    'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 ' +
    'acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml ' +
    'Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde ' +
    'Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ' +
    'ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide ' +
    'oslash ugrave uacute ucirc uuml yacute thorn yuml';
  const table: Record<string, number> = {};
  for (const [name, char] of Object.entries(ascii)) table[name] = char.codePointAt(0)!;
  latin1.split(' ').forEach((name, i) => (table[name] = 0xa0 + i));
  return table;
})();

const JSON_ESCAPES: Record<string, number> = {
  '"': 0x22,
  "'": 0x27,
  '\\': 0x5c,
  '/': 0x2f,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};

/** Characters that can begin an encoded character, at any depth. */
const INTRODUCERS = new Set(['%', '&', '\\', '+'].map((c) => c.charCodeAt(0)));

const isHex = (cp: number) => (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 70) || (cp >= 97 && cp <= 102);
const isDigit = (cp: number) => cp >= 48 && cp <= 57;
const isLetterOrDigit = (cp: number) => isDigit(cp) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122);

type Source = (pos: number) => Decoded[];

/**
 * Reads one character of a text at a position, every way it may be written, `depth` encodings deep. Inside an
 * escape, only its punctuation (`%`, `&`, `#`, `;`, `\`, a quote) may itself be encoded; digits and letters are read
 * as written, which is how every double encoding writes them and keeps the reading linear.
 */
class Decoder {
  private readonly text: string;
  private readonly memo = new Map<number, Decoded[]>();

  constructor(text: string) {
    this.text = text;
  }

  at(pos: number, depth: number): Decoded[] {
    const key = pos * (DEPTH + 1) + depth;
    const known = this.memo.get(key);
    if (known) return known;
    const cp = this.text.codePointAt(pos);
    if (cp === undefined) return [];
    const raw = { cp, end: pos + (cp > 0xffff ? 2 : 1) };
    if (depth === 0 || !INTRODUCERS.has(this.text.charCodeAt(pos))) return [raw];
    const escape: Escape = { text: this.text, next: (p) => this.at(p, depth - 1) };
    const out = [
      raw,
      ...plus(escape, pos),
      ...percent(escape, pos),
      ...entity(escape, pos),
      ...jsonEscape(escape, pos),
    ];
    this.memo.set(key, out);
    return out;
  }
}

/** What an escape is read from: the text itself for its digits and letters, `next` for its punctuation. */
interface Escape {
  text: string;
  next: Source;
}

/** Every way `pos` starts with the character `char` (itself encoded or not). */
const punctuation = (escape: Escape, pos: number, char: string): Decoded[] =>
  escape.next(pos).filter((d) => d.cp === char.charCodeAt(0));

/** The text's run of accepted characters (as written) from `pos`, at most `max` long. */
function run(text: string, pos: number, accept: (cp: number) => boolean, max: number): { s: string; end: number } {
  let end = pos;
  while (end < text.length && end - pos < max && accept(text.charCodeAt(end))) end++;
  return { s: text.slice(pos, end), end };
}

/** Exactly `count` hex digits from `pos`, as a number. */
function hex(text: string, pos: number, count: number): Decoded[] {
  const { s, end } = run(text, pos, isHex, count);
  return s.length === count ? [{ cp: parseInt(s, 16), end }] : [];
}

const plus = (escape: Escape, pos: number): Decoded[] =>
  punctuation(escape, pos, '+').map((d) => ({ cp: 0x20, end: d.end }));

/** `%XX` bytes: ASCII, a Latin-1 byte, or a whole UTF-8 sequence; and `%uXXXX` (a surrogate pair read as one). */
function percent(escape: Escape, pos: number): Decoded[] {
  const { text } = escape;
  const out: Decoded[] = [];
  const byteAt = (p: number): Decoded[] => punctuation(escape, p, '%').flatMap((d) => hex(text, d.end, 2));
  const unit = (p: number): Decoded[] =>
    punctuation(escape, p, '%').flatMap((sign) =>
      text[sign.end] === 'u' || text[sign.end] === 'U' ? hex(text, sign.end + 1, 4) : [],
    );
  for (const high of unit(pos)) {
    out.push(high);
    if (high.cp >= 0xd800 && high.cp <= 0xdbff)
      for (const low of unit(high.end))
        if (low.cp >= 0xdc00 && low.cp <= 0xdfff)
          out.push({ cp: 0x10000 + ((high.cp - 0xd800) << 10) + (low.cp - 0xdc00), end: low.end });
  }
  for (const first of byteAt(pos)) {
    out.push(first); // ASCII, or a Latin-1 byte as escape() writes it
    const more = first.cp >= 0xf0 ? 3 : first.cp >= 0xe0 ? 2 : first.cp >= 0xc0 ? 1 : 0;
    let paths: Decoded[] = [{ cp: first.cp & (0x3f >> more), end: first.end }];
    for (let i = 0; i < more; i++)
      paths = paths.flatMap((path) =>
        byteAt(path.end)
          .filter((b) => (b.cp & 0xc0) === 0x80)
          .map((b) => ({ cp: (path.cp << 6) | (b.cp & 0x3f), end: b.end })),
      );
    if (more > 0) out.push(...paths.filter((p) => p.cp <= 0x10ffff));
  }
  return out;
}

/** HTML character references: `&#233;`, `&#xE9;`, `&eacute;`; the `;` of a numeric one may be missing. */
function entity(escape: Escape, pos: number): Decoded[] {
  const { text } = escape;
  const out: Decoded[] = [];
  const closed = (cp: number, end: number, needsSemicolon: boolean) => {
    const semis = punctuation(escape, end, ';');
    if (semis.length === 0 && !needsSemicolon) out.push({ cp, end });
    for (const semi of semis) out.push({ cp, end: semi.end });
  };
  for (const amp of punctuation(escape, pos, '&')) {
    for (const hash of punctuation(escape, amp.end, '#')) {
      if (text[hash.end] === 'x' || text[hash.end] === 'X') {
        const digits = run(text, hash.end + 1, isHex, 8);
        if (digits.s) closed(parseInt(digits.s, 16), digits.end, false);
      }
      const digits = run(text, hash.end, isDigit, 9);
      if (digits.s) closed(parseInt(digits.s, 10), digits.end, false);
    }
    const name = run(text, amp.end, isLetterOrDigit, 32);
    const cp = NAMED_ENTITIES[name.s];
    if (cp !== undefined) closed(cp, name.end, true);
  }
  return out.filter((d) => d.cp <= 0x10ffff);
}

/** JSON and JavaScript string escapes, `\uD83D\uDE00` pairs read as one character. */
function jsonEscape(escape: Escape, pos: number): Decoded[] {
  const { text } = escape;
  const out: Decoded[] = [];
  const unit = (p: number): Decoded[] => (text[p] === 'u' ? hex(text, p + 1, 4) : []);
  for (const slash of punctuation(escape, pos, '\\')) {
    for (const d of escape.next(slash.end)) {
      const simple = JSON_ESCAPES[String.fromCodePoint(d.cp)];
      if (simple !== undefined) out.push({ cp: simple, end: d.end });
    }
    if (text[slash.end] === 'x') out.push(...hex(text, slash.end + 1, 2));
    for (const high of unit(slash.end)) {
      out.push(high);
      if (high.cp < 0xd800 || high.cp > 0xdbff) continue;
      for (const slash2 of punctuation(escape, high.end, '\\'))
        for (const low of unit(slash2.end))
          if (low.cp >= 0xdc00 && low.cp <= 0xdfff)
            out.push({ cp: 0x10000 + ((high.cp - 0xd800) << 10) + (low.cp - 0xdc00), end: low.end });
    }
  }
  return out;
}

/** A secret as the matcher needs it: its characters, and where each character occurs in it. */
interface PreparedSecret {
  chars: number[];
  minRun: number;
  positions: Map<number, number[]>;
  /** Every run of `minRun` characters of it, as written. */
  runs: string[];
}

const ENCODED = /[%&\\+]/;

function findPlain(text: string, secret: PreparedSecret, found: Array<[number, number]>): void {
  for (const run of secret.runs)
    for (let at = text.indexOf(run); at !== -1; at = text.indexOf(run, at + 1)) found.push([at, at + run.length]);
}

/** The secrets of one scan or flow run, prepared once for every string they are looked for in. */
export class SecretSet {
  private readonly secrets: PreparedSecret[];

  constructor(values: readonly string[]) {
    const unique = [...new Set(values.filter((v) => v.length > 0))];
    this.secrets = unique.map((value) => {
      const chars = [...value].map((c) => c.codePointAt(0)!);
      const positions = new Map<number, number[]>();
      chars.forEach((cp, i) => positions.set(cp, [...(positions.get(cp) ?? []), i]));
      const minRun = Math.min(MIN_SECRET_RUN, chars.length);
      const runs = new Set<string>();
      for (let i = 0; i + minRun <= chars.length; i++) runs.add(String.fromCodePoint(...chars.slice(i, i + minRun)));
      return { chars, minRun, positions, runs: [...runs] };
    });
  }

  get empty(): boolean {
    return this.secrets.length === 0;
  }

  /** The [start, end) ranges of `text` that are a run of a secret, merged. */
  spans(text: string): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    // Text with nothing encoded in it (most of what Lighthouse records) needs only a plain search.
    const encoded = ENCODED.test(text);
    for (const secret of this.secrets)
      if (text.length >= secret.minRun) (encoded ? matchSecret : findPlain)(text, secret, found);
    found.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const span of found) {
      const last = merged[merged.length - 1];
      if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
      else merged.push([...span]);
    }
    return merged;
  }

  /** The text with every run of a secret replaced by REDACTED. */
  redact(text: string): string {
    const spans = this.spans(text);
    if (spans.length === 0) return text;
    let out = '';
    let from = 0;
    for (const [start, end] of spans) {
      out += text.slice(from, start) + REDACTED;
      from = end;
    }
    return out + text.slice(from);
  }
}

interface Partial {
  /** The index in the secret of the character that would continue the run. */
  next: number;
  length: number;
  start: number;
}

/** Keeps, per next character, only the longest run (the one that began earliest). */
function keep(states: Partial[], next: number, length: number, start: number): void {
  for (const state of states)
    if (state.next === next) {
      if (state.length < length) Object.assign(state, { length, start });
      return;
    }
  states.push({ next, length, start });
}

/**
 * Reads the text once, left to right, following every partial match: at each position, for each next character
 * of a secret it could continue with, the longest run so far and where it began. Most characters are written as
 * themselves and move the runs one position on; encoded ones move them further (`ahead`).
 */
function matchSecret(text: string, secret: PreparedSecret, found: Array<[number, number]>): void {
  const decoder = new Decoder(text);
  const { chars, minRun, positions } = secret;
  const ahead = new Map<number, Partial[]>();
  let current: Partial[] = [];
  let following: Partial[] = [];
  for (let pos = 0; pos < text.length; pos++) {
    const later = ahead.get(pos);
    if (later) {
      ahead.delete(pos);
      for (const state of later) keep(current, state.next, state.length, state.start);
    }
    const code = text.charCodeAt(pos);
    const introducer = INTRODUCERS.has(code);
    const cp = introducer || (code >= 0xd800 && code <= 0xdbff) ? text.codePointAt(pos)! : code;
    if (current.length > 0 || introducer || positions.has(cp)) {
      const decoded = introducer ? decoder.at(pos, DEPTH) : [{ cp, end: pos + (cp > 0xffff ? 2 : 1) }];
      for (const d of decoded) {
        let target = following;
        if (d.end !== pos + 1) {
          target = ahead.get(d.end) ?? [];
          ahead.set(d.end, target);
        }
        const add = (next: number, length: number, start: number) => {
          if (length >= minRun) found.push([start, d.end]);
          if (next < chars.length) keep(target, next, length, start);
        };
        for (const state of current) if (chars[state.next] === d.cp) add(state.next + 1, state.length + 1, state.start);
        for (const first of positions.get(d.cp) ?? []) add(first + 1, 1, pos);
      }
    }
    current = following;
    following = [];
  }
}

/**
 * A base64 `data:` URL (Lighthouse's screenshots and filmstrip frames): image bytes, not text, which redaction
 * would corrupt and which the rule does not claim to cover (docs/security.md: images are not redacted).
 */
const BASE64_DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,[A-Za-z0-9+/]*={0,2}$/;

const redactString = (text: string, secrets: SecretSet): string =>
  BASE64_DATA_URL.test(text) ? text : secrets.redact(text);

/**
 * A copy of a JSON value with every run of a secret in its strings (object keys included) redacted; base64 data
 * URLs (images) are left as they are.
 */
export function redactSecrets<T>(value: T, secrets: SecretSet): T {
  if (secrets.empty) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactString(node, secrets);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(node)) out[secrets.redact(key)] = walk(inner);
      return out;
    }
    return node;
  };
  return walk(value) as T;
}

/** Whether any string of a JSON value (object keys included) still holds a run of a secret. */
export function containsSecret(value: unknown, secrets: SecretSet): boolean {
  if (secrets.empty) return false;
  const walk = (node: unknown): boolean => {
    if (typeof node === 'string') return !BASE64_DATA_URL.test(node) && secrets.spans(node).length > 0;
    if (Array.isArray(node)) return node.some(walk);
    if (node && typeof node === 'object')
      return Object.entries(node).some(([key, inner]) => secrets.spans(key).length > 0 || walk(inner));
    return false;
  };
  return walk(value);
}
