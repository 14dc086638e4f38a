/**
 * The only way SQL text with values is built for ClickHouse. ClickHouse 18.16 has no server-side query
 * parameters, so every value is formatted here by type; anything else is refused.
 */

export class ClickHouseSqlError extends Error {}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** A database, table or column name; validated, never quoted from input. */
export function ident(name: string): Raw {
  if (!IDENTIFIER.test(name)) throw new ClickHouseSqlError(`not an identifier: ${JSON.stringify(name)}`);
  return new Raw(name);
}

/** A comma-separated list of names (an INSERT's column list). */
export function identList(names: readonly string[]): Raw {
  if (names.length === 0) throw new ClickHouseSqlError('empty identifier list');
  return new Raw(names.map((name) => ident(name).text).join(', '));
}

/** An integer in a declared range. */
export function int(value: number, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Raw {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new ClickHouseSqlError(`integer out of range: ${value}`);
  return new Raw(String(value));
}

/** A non-empty list of integers in a declared range, for `IN (...)`; an empty list is refused (no `IN ()`). */
export function intList(values: readonly number[], min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Raw {
  if (values.length === 0) throw new ClickHouseSqlError('empty integer list');
  return new Raw(values.map((value) => int(value, min, max).text).join(', '));
}

/** One of a fixed list of values (enum members), emitted as a quoted literal. */
export function oneOf<T extends string>(value: string, allowed: readonly T[]): Raw {
  if (!(allowed as readonly string[]).includes(value))
    throw new ClickHouseSqlError(`value not allowed: ${JSON.stringify(value)}`);
  return new Raw(quote(value));
}

/** A point in time, sent as Unix seconds so no time zone parsing happens on the server. */
export function timestamp(value: Date): Raw {
  const seconds = Math.floor(value.getTime() / 1000);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new ClickHouseSqlError('invalid timestamp');
  return new Raw(`toDateTime(${seconds}, 'UTC')`);
}

/** A finite number (a threshold, say), written so ClickHouse reads it as a Float64 literal. */
export function num(value: number): Raw {
  if (!Number.isFinite(value)) throw new ClickHouseSqlError(`not a finite number: ${value}`);
  return new Raw(String(value));
}

/** A non-empty list of integers in a declared range, as `(1, 2, 3)` for `IN`. */
export function ints(values: readonly number[], min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Raw {
  if (values.length === 0) throw new ClickHouseSqlError('empty integer list');
  return new Raw(`(${values.map((value) => int(value, min, max).text).join(', ')})`);
}

/** Typed fragments joined with `separator` (a fixed text of the caller's, never input). */
export function join(parts: readonly Raw[], separator: ', ' | ' AND ' | ' OR ' | ' UNION ALL ' = ', '): Raw {
  parts.forEach((part, i) => {
    if (!(part instanceof Raw)) throw new ClickHouseSqlError(`untyped value in ClickHouse SQL list at position ${i}`);
  });
  return new Raw(parts.map((part) => part.text).join(separator));
}

/** SQL the server itself wrote (a column's type or default expression from system.columns), never input. */
export function serverSql(text: string): Raw {
  return new Raw(text);
}

export function str(value: string): Raw {
  return new Raw(quote(value));
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Tagged template: every interpolation must be one of the typed values above (or a `part`). */
export function sql(strings: TemplateStringsArray, ...values: Raw[]): string {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    if (!(value instanceof Raw)) throw new ClickHouseSqlError(`untyped value in ClickHouse SQL at position ${i}`);
    text += value.text + (strings[i + 1] ?? '');
  });
  return text;
}

/** The same tagged template for a fragment (a condition, a subquery) that goes into another `sql` or `part`. */
export function part(strings: TemplateStringsArray, ...values: Raw[]): Raw {
  return new Raw(sql(strings, ...values));
}
