import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { validationFailed } from '../http/errors.ts';
import { assertStorable } from '../http/input-guard.ts';

/** A JSON Schema as plain data; the same objects validate requests and are published in the OpenAPI document. */
export type JsonSchema = Record<string, unknown>;

/** The spec's response envelope: `{ data }`, with `meta` on paginated lists. */
export const envelope = (data: JsonSchema, meta?: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['data'],
  properties: { data, ...(meta ? { meta } : {}) },
});

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// Bodies are JSON and must have the right types; query strings are text, so their values are coerced.
const bodyAjv = addFormats(
  new Ajv({ allErrors: true, strict: true, strictRequired: false, useDefaults: true, coerceTypes: false }),
);
const queryAjv = addFormats(new Ajv({ allErrors: true, strict: true, useDefaults: true, coerceTypes: true }));

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

function fieldName(error: ErrorObject, root: string): string {
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  if (error.keyword === 'required')
    return [path, (error.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
  if (error.keyword === 'additionalProperties') {
    return [path, (error.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
  }
  return path || root;
}

function messageFor(error: ErrorObject, field: string): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `The ${field} field is required.`;
    case 'additionalProperties':
      return `The ${field} field is not allowed.`;
    case 'type': {
      const types = String(params.type).split(',');
      return `The ${field} must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}.`;
    }
    case 'enum':
      return `The ${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return `The ${field} must be ${JSON.stringify(params.allowedValue)}.`;
    case 'minimum':
      return `The ${field} must be at least ${String(params.limit)}.`;
    case 'maximum':
      return `The ${field} may not be greater than ${String(params.limit)}.`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `The ${field} field is required.`
        : `The ${field} must be at least ${String(params.limit)} characters.`;
    case 'maxLength':
      return `The ${field} may not be greater than ${String(params.limit)} characters.`;
    case 'maxItems':
      return `The ${field} may not have more than ${String(params.limit)} items.`;
    case 'minItems':
      return `The ${field} must have at least ${String(params.limit)} items.`;
    case 'uniqueItems':
      return `The ${field} must not contain duplicates.`;
    case 'format':
      return `The ${field} must be a valid ${String(params.format)}.`;
    case 'pattern':
      return `The ${field} format is invalid.`;
    default:
      return `The ${field} is invalid${error.message ? `: ${error.message}` : ''}.`;
  }
}

/** ajv errors as the spec's 422 `errors` object: field name to a list of readable messages. */
export function formatErrors(errors: ErrorObject[], root: string): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const error of errors) {
    // `if/then` wrappers repeat the inner error; the inner one says what is wrong.
    if (error.keyword === 'if') continue;
    const field = fieldName(error, root);
    const message = messageFor(error, field);
    const list = (result[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return result;
}

const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function compile(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Validates (and, for queries, coerces and defaults in place); throws the spec's 422 on failure, unstorable text included. */
export function validate<T>(kind: 'body' | 'query', schema: JsonSchema, value: unknown): T {
  assertStorable(value, kind);
  const fn = compile(kind === 'body' ? bodyAjv : queryAjv, schema);
  if (!fn(value)) throw validationFailed(formatErrors(fn.errors ?? [], kind));
  // A query's '1e309' (coerced) or a body's 1e309 (parsed) is Infinity, and ajv skips range checks for it.
  const infinite = Object.entries(typeof value === 'object' && value !== null ? value : {}).filter(
    ([, v]) => typeof v === 'number' && !Number.isFinite(v),
  );
  if (infinite.length)
    throw validationFailed(
      Object.fromEntries(infinite.map(([name]) => [name, [`The ${name} must be a finite number.`]])),
    );
  return value as T;
}

/** Compiles every schema once at start, so a broken schema fails the process instead of a request. */
export function precompile(kind: 'body' | 'query', schema: JsonSchema): void {
  compile(kind === 'body' ? bodyAjv : queryAjv, schema);
}

/**
 * Whether a request may leave this body out: the router reads no body as `{}`, so a body is optional exactly
 * when `{}` passes its schema. The OpenAPI document marks the others required.
 */
export function acceptsEmptyBody(schema: JsonSchema): boolean {
  return compile(bodyAjv, schema)({}) === true;
}
