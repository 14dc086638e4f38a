import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The collector's budget: DebugBear and SpeedCurve LUX allow themselves 10 KB; we stay under 7 KB gzip. */
export const COLLECTOR_GZIP_LIMIT = 7 * 1024;

const ENTRY = resolve(dirname(fileURLToPath(import.meta.url)), 'src/rum.ts');
const BANNER = '/*! webperf live-data collector; includes web-vitals (Apache-2.0, Google LLC) */';

export interface CollectorBundle {
  code: Buffer;
  /** gzip level 9 of `code`: what the ingest service sends to browsers that accept gzip. */
  gzip: Buffer;
  /** Brotli at its highest quality: what it sends to browsers that accept br (all current ones, over HTTPS). */
  brotli: Buffer;
  /** The first 16 hex digits of the code's SHA-256: the pinned URL /c/<hash>.js and the ETag. */
  hash: string;
}

/**
 * Bundles collector/src/rum.ts with web-vitals into one minified IIFE, in memory. The same sources and
 * esbuild version give the same bytes, so every ingest instance serves the same hash. Throws when the gzip
 * size is above the limit (7 KB unless a test asks for less).
 */
export async function buildCollector(options: { gzipLimit?: number } = {}): Promise<CollectorBundle> {
  const limit = options.gzipLimit ?? COLLECTOR_GZIP_LIMIT;
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    banner: { js: BANNER },
    charset: 'utf8',
    // web-vitals' own builds shorten its internal `_` properties the same way (rum.ts imports its modules).
    mangleProps: /^_/,
    write: false,
    logLevel: 'silent',
  });
  const code = Buffer.from(result.outputFiles[0]!.contents);
  const gzip = gzipSync(code, { level: 9 });
  const brotli = brotliCompressSync(code, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: code.length,
    },
  });
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  if (gzip.length > limit) {
    throw new Error(`collector script is ${gzip.length} bytes gzip (${code.length} raw), above its limit of ${limit}`);
  }
  return { code, gzip, brotli, hash };
}

/**
 * `npm run build:collector [out dir]`: writes rum.js and rum.<hash>.js (default .state/collector/, which git
 * and lint ignore) and prints the sizes. The ingest service does not read these files: it builds the same
 * bytes in memory when first asked for the script (ingest/collector-script.ts).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../.state/collector'));
  try {
    const bundle = await buildCollector();
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'rum.js'), bundle.code);
    writeFileSync(join(outDir, `rum.${bundle.hash}.js`), bundle.code);
    console.log(
      `collector: ${bundle.code.length} bytes raw, ${bundle.gzip.length} bytes gzip (limit ${COLLECTOR_GZIP_LIMIT}), ${bundle.brotli.length} bytes brotli, hash ${bundle.hash}, written to ${outDir}`,
    );
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
