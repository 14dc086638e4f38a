import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from '../http/errors.ts';

/** Largest JSON body the API accepts (the spec leaves it open); documented in the API reference. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON request body. No body: undefined. A body with another content type: 415. Larger than
 * MAX_BODY_BYTES: 413. Not JSON: 422 with the parser's complaint under `body`.
 */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  const length = ctx.request.length;
  const chunked = ctx.get('transfer-encoding') !== '';
  if (!chunked && (length === undefined || length === 0)) return undefined;
  if (!ctx.is('application/json', 'application/*+json')) {
    throw new HttpError(415, { message: 'The request body must be JSON (Content-Type: application/json).' });
  }
  if (length !== undefined && length > MAX_BODY_BYTES) throw tooLarge();
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length, encoding: 'utf-8' });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw tooLarge();
    throw new HttpError(400, { message: 'The request body could not be read.' });
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(422, {
      message: 'The request body is not valid JSON.',
      errors: { body: [`The request body is not valid JSON: ${(error as Error).message}`] },
    });
  }
}

const tooLarge = () =>
  new HttpError(413, { message: `The request body may not be larger than ${MAX_BODY_BYTES} bytes.` });
