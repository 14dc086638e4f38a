import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from '../http/errors.ts';
import { assertStorable, decodeUtf8 } from '../http/input-guard.ts';

/** Largest JSON body the API accepts (the spec leaves it open); documented in the API reference. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON request body. No body: undefined. A body with another content type: 415. Larger than
 * MAX_BODY_BYTES: 413. Not UTF-8, or not JSON: 422 under `body`. A key or string anywhere in it that is not
 * well-formed text (NUL, an unpaired surrogate: http/input-guard.ts): 422 naming it. Every JSON body the API
 * and the MCP server read passes here.
 */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  const length = ctx.request.length;
  const chunked = ctx.get('transfer-encoding') !== '';
  if (!chunked && (length === undefined || length === 0)) return undefined;
  if (!ctx.is('application/json', 'application/*+json')) {
    throw new HttpError(415, { message: 'The request body must be JSON (Content-Type: application/json).' });
  }
  if (length !== undefined && length > MAX_BODY_BYTES) throw tooLarge();
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw tooLarge();
    throw new HttpError(400, { message: 'The request body could not be read.' });
  }
  const text = decodeUtf8(bytes);
  if (text === null) throw bodyRefused('The request body is not valid UTF-8.');
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = (error as Error).message;
    throw bodyRefused('The request body is not valid JSON.', `The request body is not valid JSON: ${reason}`);
  }
  assertStorable(parsed, 'body');
  return parsed;
}

const bodyRefused = (message: string, detail: string = message) =>
  new HttpError(422, { message, errors: { body: [detail] } });

const tooLarge = () =>
  new HttpError(413, { message: `The request body may not be larger than ${MAX_BODY_BYTES} bytes.` });
