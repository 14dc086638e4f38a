import type { IncomingMessage, ServerResponse } from 'node:http';
import { stop as stopEsbuild } from 'esbuild';
import { buildCollector, type CollectorBundle } from '../collector/build.ts';
import type { Logger } from '../infra/logger.ts';
import { collectorScriptUrl } from '../core/rum/site.ts';

/** The snippet's URL path (/c/1/rum.js): stable, so browsers revalidate it hourly. */
export const COLLECTOR_STABLE_PATH = new URL(collectorScriptUrl('http://ingest')).pathname;
const STABLE_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';
/** /c/<hash>.js never changes: for those who pin a version. */
const PINNED_CACHE = 'public, max-age=31536000, immutable';

let bundle: Promise<CollectorBundle> | undefined;

/**
 * The collector script, built in memory on first use (collector/build.ts; a few hundred ms once per process)
 * and kept for the life of the process. Built here rather than read from a file so the process and the
 * Docker image need no build step: the same sources give the same bytes and hash on every instance.
 */
export function collectorBundle(): Promise<CollectorBundle> {
  bundle ??= buildCollector()
    .finally(() => stopEsbuild()) // its helper process is not needed once the bytes are in memory
    .catch((error: unknown) => {
      bundle = undefined; // a later request tries again
      throw error;
    });
  return bundle;
}

/**
 * Serves GET/HEAD /c/1/rum.js and /c/<hash>.js; answers true when the request was under /c/ (and is being
 * answered), false to let the caller route it.
 */
export function serveCollectorScript(req: IncomingMessage, res: ServerResponse, log: Logger): boolean {
  const path = (req.url ?? '/').split('?')[0]!;
  if (!path.startsWith('/c/')) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res
      .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' })
      .end(JSON.stringify({ message: 'Method not allowed.' }));
    return true;
  }
  collectorBundle().then(
    (script) => respond(req, res, path, script),
    (error: unknown) => {
      log.error({ err: error }, 'collector script build failed');
      res
        .writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ message: 'Collector script unavailable.' }));
    },
  );
  return true;
}

function respond(req: IncomingMessage, res: ServerResponse, path: string, script: CollectorBundle): void {
  const cacheControl =
    path === COLLECTOR_STABLE_PATH ? STABLE_CACHE : path === `/c/${script.hash}.js` ? PINNED_CACHE : null;
  if (!cacheControl) {
    res
      .writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ message: 'Not found.' }));
    return;
  }
  const coding = contentCoding(req.headers['accept-encoding']);
  // One ETag per representation (RFC 9110: a strong validator differs by content coding); any matches.
  const etag = `"${script.hash}${CODINGS[coding].etagSuffix}"`;
  const headers: Record<string, string> = {
    'cache-control': cacheControl,
    etag,
    vary: 'Accept-Encoding',
    'access-control-allow-origin': '*',
    // Pages that isolate themselves (COEP require-corp) may still load it.
    'cross-origin-resource-policy': 'cross-origin',
    'x-content-type-options': 'nosniff',
  };
  if (matchesETag(req.headers['if-none-match'], script.hash)) {
    res.writeHead(304, headers).end();
    return;
  }
  const body = script[CODINGS[coding].body];
  headers['content-type'] = 'text/javascript; charset=utf-8';
  headers['content-length'] = String(body.length);
  if (coding !== 'identity') headers['content-encoding'] = coding;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The representations, best first: brotli is about a tenth smaller than gzip. */
const CODINGS = {
  br: { body: 'brotli', etagSuffix: '-br' },
  gzip: { body: 'gzip', etagSuffix: '-gz' },
  identity: { body: 'code', etagSuffix: '' },
} as const satisfies Record<string, { body: keyof CollectorBundle; etagSuffix: string }>;
type Coding = keyof typeof CODINGS;

/** br when Accept-Encoding accepts it (by name, else by *, with q above 0), else gzip the same way, else none. */
function contentCoding(header: string | undefined): Coding {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(coding!, weight === undefined ? 1 : Number(weight.slice(2)) || 0);
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : 'identity';
}

/** If-None-Match uses the weak comparison: W/ and the coding suffix do not matter. */
function matchesETag(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  const current = new Set(['*', ...Object.values(CODINGS).map((c) => `"${hash}${c.etagSuffix}"`)]);
  return header.split(',').some((tag) => current.has(tag.trim().replace(/^W\//, '')));
}
