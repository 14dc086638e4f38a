import type { JsonSchema } from './validation.ts';

/**
 * An example value for a JSON Schema, for the OpenAPI document's request and response examples: the schema's
 * own `examples`/`default`/`const`/first enum value where it has one, otherwise a value built from its type,
 * format, bounds and pattern, with property names as hints (`url`, `email`, ...). The examples are derived,
 * never written by hand, so they cannot drift from the schemas (a test validates each against its schema).
 */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema> = {}, name = ''): unknown {
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const target = components[s.$ref.replace('#/components/schemas/', '')];
    return target ? exampleOf(target, components, name) : null;
  }
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? null;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = s[key] as JsonSchema[] | undefined;
    if (options?.length) {
      const first = options.find((o) => (o as Record<string, unknown>).type !== 'null') ?? options[0]!;
      return exampleOf({ ...withoutKeys(s, key), ...(first as object) } as JsonSchema, components, name);
    }
  }
  // allOf with conditions (if/then) only constrains; one with shapes of its own merges them.
  const shapes = ((s.allOf ?? []) as Array<Record<string, unknown>>).filter(
    (part) => part.type || part.properties || part.$ref,
  );
  if (shapes.length) return Object.assign({}, ...shapes.map((part) => exampleOf(part as JsonSchema, components, name)));
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : (s.type as string | undefined);
  switch (type ?? (s.properties ? 'object' : s.items ? 'array' : undefined)) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, exampleOf(value, components, key)]),
      );
    }
    case 'array': {
      const item = s.items ? exampleOf(s.items as JsonSchema, components, singular(name)) : 'string';
      return Array.from({ length: Math.max(1, Number(s.minItems ?? 1)) }, () => item);
    }
    case 'integer':
      return integerExample(s, name);
    case 'number':
      return numberExample(s, name);
    case 'boolean':
      return name.startsWith('is_') || name === 'public' ? true : false;
    case 'string':
      return stringExample(s, name);
    case 'null':
      return null;
    default:
      return null;
  }
}

const withoutKeys = (s: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(s).filter(([k]) => k !== key));
const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

function integerExample(s: Record<string, unknown>, name: string): number {
  const min =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum + 1
        : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  const hint = /score/.test(name)
    ? 87
    : /id$/.test(name)
      ? 42
      : /count|total|runs|page|limit/.test(name)
        ? 3
        : /ms$/.test(name)
          ? 1200
          : 1;
  return clamp(hint, min, max);
}

function numberExample(s: Record<string, unknown>, name: string): number {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  const hint = /^cls|_cls$|^cls_/.test(name) ? 0.05 : /ms$/.test(name) ? 1850 : /bytes/.test(name) ? 1_250_000 : 1.5;
  return clamp(hint, min, max);
}

const clamp = (value: number, min?: number, max?: number) =>
  Math.min(max ?? Infinity, Math.max(min ?? -Infinity, value));

const PATTERN_CANDIDATES = [
  '01jz8q3m5kx7h2v9w4n6p0r1st',
  '42',
  'X-Api-Key',
  'preview-token-123',
  'user',
  'example',
  'a',
];

function stringExample(s: Record<string, unknown>, name: string): string {
  switch (s.format) {
    case 'date-time':
      return '2026-11-24T09:30:00Z';
    case 'date':
      return '2026-11-24';
    case 'uri':
      return /image|screenshot|filmstrip|_url$/.test(name) && name !== 'url' && name !== 'final_url'
        ? 'https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp'
        : 'https://www.example.com/';
    case 'email':
      return 'dev@example.com';
  }
  const hinted = /^(url|final_url|page_url)$/.test(name)
    ? 'https://www.example.com/'
    : /host|domain/.test(name)
      ? 'www.example.com'
      : /email/.test(name)
        ? 'dev@example.com'
        : /region/.test(name)
          ? 'eu-central'
          : /name$/.test(name)
            ? 'Example'
            : 'example';
  const minLength = Number(s.minLength ?? 0);
  const maxLength = Number(s.maxLength ?? Infinity);
  const fits = (candidate: string) =>
    candidate.length >= minLength &&
    candidate.length <= maxLength &&
    (typeof s.pattern !== 'string' || new RegExp(s.pattern, 'u').test(candidate));
  return (
    [hinted, ...PATTERN_CANDIDATES].find(fits) ??
    hinted.padEnd(minLength, 'x').slice(0, Math.max(minLength, Math.min(maxLength, hinted.length)))
  );
}
