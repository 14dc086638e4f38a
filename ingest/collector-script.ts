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
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  // One ETag per representation (RFC 9110: a strong validator differs by content coding); either matches.
  const etag = gzip ? `"${script.hash}-gz"` : `"${script.hash}"`;
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
  const body = gzip ? script.gzip : script.code;
  headers['content-type'] = 'text/javascript; charset=utf-8';
  headers['content-length'] = String(body.length);
  if (gzip) headers['content-encoding'] = 'gzip';
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** gzip (or *) listed without q=0. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** If-None-Match uses the weak comparison: W/ and the coding suffix do not matter. */
function matchesETag(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === `"${hash}"` || value === `"${hash}-gz"`;
  });
}
