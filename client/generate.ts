#!/usr/bin/env node
/**
 * Regenerates schema.ts (the API's types) from the OpenAPI document a running service serves:
 *
 *   npm run client:generate                 # the local service started by ./svc start
 *   WEBPERF_URL=https://perf.example.com npm run client:generate
 *
 * The test suite fails when the committed schema.ts and the served document drift (test/client/).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaSource } from './schema-source.ts';

const base = (process.env.WEBPERF_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`).replace(/\/+$/, '');
const response = await fetch(`${base}/api/v1/openapi.json`).catch((error: unknown) => {
  console.error(
    `Could not reach ${base} (${(error as Error).message}). Start the service with ./svc start, or set WEBPERF_URL.`,
  );
  process.exit(2);
});
if (!response.ok) {
  console.error(`${base}/api/v1/openapi.json answered ${response.status}.`);
  process.exit(2);
}
const target = fileURLToPath(new URL('./schema.ts', import.meta.url));
writeFileSync(target, await schemaSource(await response.json()));
console.log(`wrote ${target} from ${base}/api/v1/openapi.json`);
