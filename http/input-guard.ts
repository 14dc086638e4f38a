import type { Context, Next } from 'koa';
import { HttpError, notFound, validationFailed } from './errors.ts';

/**
 * Well-formed text only. A string that enters the service must be well-formed Unicode
 * (`String.prototype.isWellFormed`: no unpaired UTF-16 surrogate, which a JSON `\ud800` escape can make) and
 * hold no NUL: Postgres refuses both (`jsonb` the surrogate, `text` the NUL) and ClickHouse refuses the
 * surrogate. Such input is refused where it enters, for every route: path segments here (404: no resource has
 * such a name), query parameters here for the web area (400) and in the API's route mechanism (422, after
 * authentication like every other 422), JSON bodies where they are read (api/body.ts, also for MCP) and in
 * validation, form fields in the form reader, OAuth registrations and client metadata documents in oauth/.
 * Bytes that are not UTF-8 (raw in a body, or percent-encoded in a path, query or form) are refused too,
 * rather than silently replaced by U+FFFD.
 */
export const isStorableText = (value: string): boolean => value.isWellFormed() && !value.includes('\0');

/** A field name fit for an error message (the offending characters shown as U+FFFD). */
const printable = (name: string): string => name.toWellFormed().replaceAll('\0', '\ufffd');

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

export const notUtf8Message = (field: string): string => `The ${field} is not valid UTF-8.`;

/** The API's 422 for a parsed query or body that holds unstorable text; nothing when it is clean. */
export function assertStorable(value: unknown, root: 'query' | 'body'): void {
  const field = unstorableField(value, root);
  if (field) throw validationFailed({ [field]: [unstorableMessage(field)] });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Request bytes as text, or null when they are not UTF-8 (a lone surrogate's CESU-8 `ED A0 80` included). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A path segment or urlencoded name or value percent-decoded as the URL standard does (`%` without two hex
 * digits stays as it is, `+` is a space), or null when the bytes it decodes to are not UTF-8.
 */
export function percentDecode(component: string): string | null {
  const parts = component.replaceAll('+', ' ').split(/(%[0-9A-Fa-f]{2})/);
  const bytes = parts.map((part, i) =>
    i % 2 === 1 ? Buffer.from([Number.parseInt(part.slice(1), 16)]) : Buffer.from(part, 'utf8'),
  );
  return decodeUtf8(Buffer.concat(bytes));
}

/**
 * The name of the first field of an urlencoded string (a query string or a form body) whose name or value
 * percent-decodes to bytes that are not UTF-8 (`%ED%A0%80`, `%FF`), or null. The URL standard would decode
 * them to U+FFFD: refused instead, so that nothing is stored other than as it was sent.
 */
export function undecodableField(urlencoded: string): string | null {
  for (const pair of urlencoded.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    if (percentDecode(name) === null || percentDecode(value) === null)
      return new URLSearchParams(`${name}=`).keys().next().value!;
  }
  return null;
}

/** The API's 422 for a query string with a field that is not UTF-8; nothing when it is clean. */
export function assertUtf8Query(querystring: string): void {
  const field = undecodableField(querystring);
  if (field !== null) throw validationFailed({ [field]: [notUtf8Message(field)] });
}

export const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

const storableSegment = (segment: string): boolean => {
  const decoded = percentDecode(segment);
  return decoded !== null && isStorableText(decoded);
};

/** The request edge, before any router: path segments everywhere, and the web area's query parameters. */
export function refuseUnstorableInput() {
  return async (ctx: Context, next: Next) => {
    if (!ctx.path.split('/').every(storableSegment)) throw notFound();
    if (!isApiPath(ctx.path)) {
      const field = unstorableField(ctx.query, 'query');
      if (field) throw new HttpError(400, { message: unstorableMessage(`query parameter ${field}`) });
      const undecodable = undecodableField(ctx.querystring);
      if (undecodable !== null) throw new HttpError(400, { message: notUtf8Message(`query parameter ${undecodable}`) });
    }
    await next();
  };
}
