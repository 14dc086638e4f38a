import { HSTS } from '../../core/security-headers.ts';
import type { RumSite } from '../../core/rum/site.ts';
import { COLLECTOR_STABLE_PATH } from '../../ingest/collector-script.ts';
import { rawRequest } from '../harness/web.ts';
import { beacon, createSite, type IngestBed, ingestBed, type IngestProcess, send } from './support.ts';

/**
 * The real ingest process, once with an https INGEST_URL and once with a plain http one: every answer (a
 * beacon, a preflight, a refusal, the collector script, health, an unknown path) says `nosniff`, and HSTS
 * only when INGEST_URL is https.
 */
let bed: IngestBed;
let site: RumSite;
const ingests: Record<'https' | 'http', IngestProcess | undefined> = { https: undefined, http: undefined };

beforeAll(async () => {
  bed = await ingestBed();
  site = await createSite(bed.db.knex, { domain: 'example.com' });
  ingests.https = await bed.start('https', { INGEST_URL: 'https://rum.example.test' });
  ingests.http = await bed.start('http', { INGEST_URL: 'http://127.0.0.1:1' });
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined> };
const answers: Array<{ what: string; status: number; ask: (url: string) => Promise<Answer> }> = [
  { what: 'an accepted beacon', status: 204, ask: (url) => send(url, beacon(site.publicId)) },
  { what: 'a refused beacon', status: 400, ask: (url) => send(url, 'not json') },
  {
    what: 'the preflight',
    status: 204,
    ask: (url) =>
      rawRequest(`${url}/b`, {
        method: 'OPTIONS',
        headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' },
      }),
  },
  { what: 'the collector script', status: 200, ask: (url) => rawRequest(`${url}${COLLECTOR_STABLE_PATH}`) },
  { what: 'health', status: 200, ask: (url) => rawRequest(`${url}/livez`) },
  { what: 'an unknown path', status: 404, ask: (url) => rawRequest(`${url}/nothing-here`) },
];

describe.each([
  ['https', HSTS],
  ['http', undefined],
] as const)('with an %s INGEST_URL', (kind, hsts) => {
  it.each(answers)('$what: nosniff, and HSTS only over https', async ({ status, ask }) => {
    const res = await ask(ingests[kind]!.url);
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBe(hsts);
  });
});
