import { spawnSync } from 'node:child_process';
import { request, type IncomingHttpHeaders } from 'node:http';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildCollector, COLLECTOR_GZIP_LIMIT, type CollectorBundle } from '../../collector/build.ts';
import { loadConfig, PROJECT_ROOT } from '../../infra/config.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { startReady, type RunningService } from '../harness/processes.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * The collector script as the ingest process serves it (the real process, as compose runs it): the snippet's
 * stable URL revalidated hourly, the pinned content-hashed URL cached for a year, ETag and 304, brotli and gzip, CORS,
 * and the build itself (deterministic, under its size limit, refusing to exceed it).
 */

const base = loadConfig(baseTestEnv());
let clickhouse: IsolatedClickHouse;
let ingest: RunningService;
let origin: string;
let bundle: CollectorBundle;

beforeAll(async () => {
  clickhouse = await isolatedClickHouse(base);
  const port = await freePort();
  ingest = await startReady('ingest', {
    ...baseTestEnv(),
    DATABASE_URL: base.databaseUrl,
    CLICKHOUSE_URL: base.clickhouse.url,
    CLICKHOUSE_DATABASE: clickhouse.database,
    INGEST_PORT: String(port),
    INGEST_URL: `http://127.0.0.1:${port}`,
  });
  origin = `http://127.0.0.1:${port}`;
  bundle = await buildCollector();
});

afterAll(async () => {
  await ingest?.stop();
  await clickhouse?.drop();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A plain request: no automatic Accept-Encoding or decompression, so the test sees the bytes on the wire. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the collector script from the ingest process', () => {
  it('serves the snippet URL uncompressed to clients that ask for no coding, revalidated hourly', async () => {
    const answer = await get('/c/1/rum.js');
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600, stale-while-revalidate=86400',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      vary: 'Accept-Encoding',
      etag: `"${bundle.hash}"`,
      'content-length': String(bundle.code.length),
    });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['set-cookie']).toBeUndefined();
    // The process built the same bytes as this test did: every instance serves one hash.
    expect(answer.body.equals(bundle.code)).toBe(true);
  });

  it('sends brotli to clients that accept it (before gzip), gzip under 7 KB to those that accept only gzip, and identity when both are refused with q=0', async () => {
    const brotli = await get('/c/1/rum.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(brotli.headers).toMatchObject({
      'content-encoding': 'br',
      etag: `"${bundle.hash}-br"`,
      vary: 'Accept-Encoding',
      'content-length': String(brotli.body.length),
    });
    expect(brotliDecompressSync(brotli.body).equals(bundle.code)).toBe(true);
    expect(brotli.body.length).toBeLessThan(bundle.gzip.length);

    for (const header of ['gzip', 'br;q=0, gzip;q=0.8', 'br;q=0, *']) {
      const gzip = await get('/c/1/rum.js', { 'accept-encoding': header });
      expect([header, gzip.headers['content-encoding'], gzip.headers.etag]).toEqual([
        header,
        'gzip',
        `"${bundle.hash}-gz"`,
      ]);
      expect(gunzipSync(gzip.body).equals(bundle.code)).toBe(true);
      expect(gzip.body.length).toBeLessThanOrEqual(COLLECTOR_GZIP_LIMIT);
    }
    expect((await get('/c/1/rum.js', { 'accept-encoding': '*' })).headers['content-encoding']).toBe('br');
    const refused = await get('/c/1/rum.js', { 'accept-encoding': 'gzip;q=0, br;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(bundle.code)).toBe(true);
  });

  it('answers 304 without a body when the browser has the current version (any coding, weak or strong), 200 for an old one', async () => {
    for (const tag of [
      `"${bundle.hash}"`,
      `W/"${bundle.hash}-gz"`,
      `"${bundle.hash}-br"`,
      `"0000000000000000", "${bundle.hash}-gz"`,
    ]) {
      const answer = await get('/c/1/rum.js', { 'if-none-match': tag, 'accept-encoding': 'gzip' });
      expect([tag, answer.status, answer.body.length]).toEqual([tag, 304, 0]);
      expect(answer.headers).toMatchObject({
        etag: `"${bundle.hash}-gz"`,
        'cache-control': 'public, max-age=3600, stale-while-revalidate=86400',
      });
    }
    expect((await get('/c/1/rum.js', { 'if-none-match': '"0000000000000000"' })).status).toBe(200);
  });

  it('serves the pinned content-hashed URL as immutable, and nothing else under /c/', async () => {
    const pinned = await get(`/c/${bundle.hash}.js`, { 'accept-encoding': 'gzip, br' });
    expect(pinned.status).toBe(200);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(pinned.body).equals(bundle.code)).toBe(true);

    const head = await get('/c/1/rum.js', {}, 'HEAD');
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([
      200,
      String(bundle.code.length),
      0,
    ]);

    for (const path of ['/c/0123456789abcdef.js', '/c/2/rum.js', '/c/1/rum.js/']) {
      const answer = await get(path);
      expect([path, answer.status, JSON.parse(answer.body.toString())]).toEqual([path, 404, { message: 'Not found.' }]);
    }
    const post = await get('/c/1/rum.js', {}, 'POST');
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
    // The rest of ingest is untouched.
    expect((await get('/livez')).status).toBe(200);
  });
});

describe('the collector build', () => {
  it('is deterministic, stays under its gzip limit, and fails when above a limit', async () => {
    const again = await buildCollector();
    expect(again.hash).toBe(bundle.hash);
    expect(again.code.equals(bundle.code)).toBe(true);
    expect(bundle.gzip.length).toBeLessThanOrEqual(COLLECTOR_GZIP_LIMIT);
    expect(again.brotli.equals(bundle.brotli)).toBe(true);
    await expect(buildCollector({ gzipLimit: bundle.gzip.length - 1 })).rejects.toThrow(
      `${bundle.gzip.length} bytes gzip`,
    );
  });

  it('holds no storage, cookie or fingerprinting API (the browser test shows what it does; this shows what it cannot)', () => {
    const code = bundle.code.toString('utf8');
    for (const api of [
      'document.cookie',
      'localStorage',
      'sessionStorage',
      'indexedDB',
      'getContext',
      'AudioContext',
      'enumerateDevices',
      'plugins',
      'hardwareConcurrency',
      'deviceMemory',
    ]) {
      expect([api, code.includes(api)]).toEqual([api, false]);
    }
    expect(code.startsWith('/*! webperf live-data collector; includes web-vitals (Apache-2.0, Google LLC) */')).toBe(
      true,
    );
  });

  it('typechecks its browser source against the DOM (collector/tsconfig.json; the project typecheck has no DOM types)', () => {
    const tsc = spawnSync(
      process.execPath,
      [
        resolve(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        resolve(PROJECT_ROOT, 'collector/tsconfig.json'),
      ],
      { encoding: 'utf8' },
    );
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  });
});
