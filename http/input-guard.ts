import type { Context, Next } from 'koa';
import { HttpError, notFound, validationFailed } from './errors.ts';

/**
 * Text Postgres cannot hold: NUL (refused by `text`), and unpaired UTF-16 surrogates (not Unicode: refused
 * by `jsonb`, silently replaced in `text`). Such input is refused where it enters, for every route: path
 * segments here (404: no resource has such a name), query parameters here for the web area (400) and in
 * validation for the API (422, after authentication like every other 422), JSON bodies in validation, and
 * form fields in the form reader.
 */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/** A field name fit for an error message (the offending characters shown as U+FFFD). */
const printable = (name: string): string => name.replace(UNSTORABLE_ALL, '\ufffd');

/** The dotted name of the first key or string value (at any depth) that cannot be stored, or null; `root` names a bare string. */
export function unstorableField(value: unknown, root: string, path = ''): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || root;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const name = path ? `${path}.${printable(key)}` : printable(key);
    if (!isStorableText(key)) return name;
    const found = unstorableField(item, root, name);
    if (found) return found;
  }
  return null;
}

export const unstorableMessage = (field: string): string =>
  `The ${field} contains a character that is not allowed (NUL or an unpaired surrogate).`;

/** The API's 422 for a parsed query or body that holds unstorable text; nothing when it is clean. */
export function assertStorable(value: unknown, root: 'query' | 'body'): void {
  const field = unstorableField(value, root);
  if (field) throw validationFailed({ [field]: [unstorableMessage(field)] });
}

export const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // not valid percent-encoded UTF-8: the router keeps it as sent, which is plain ASCII
  }
}

/** The request edge, before any router: path segments everywhere, and the web area's query parameters. */
export function refuseUnstorableInput() {
  return async (ctx: Context, next: Next) => {
    if (!ctx.path.split('/').every((segment) => isStorableText(decodeSegment(segment)))) throw notFound();
    if (!isApiPath(ctx.path)) {
      const field = unstorableField(ctx.query, 'query');
      if (field) throw new HttpError(400, { message: unstorableMessage(`query parameter ${field}`) });
    }
    await next();
  };
}
