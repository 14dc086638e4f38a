import { OUTBOUND_FETCH_USER_AGENT, outboundFetch } from '../../services/outbound-fetch.ts';
import { startHttpsServer, type TestHttpsServer } from '../harness/https-server.ts';

/**
 * The fetch used for Client ID Metadata Documents against a real https server on loopback with its own
 * self-signed certificate: the outbound address rule, no redirects, the size cap and the timeout.
 */

let server: TestHttpsServer;
const document = { client_id: 'https://app.example/meta.json', client_name: 'Example App' };

beforeAll(async () => {
  server = await startHttpsServer();
  server.route('/meta.json', (req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-seen-accept': req.headers.accept ?? '',
      'x-seen-agent': req.headers['user-agent'] ?? '',
    });
    res.end(JSON.stringify(document));
  });
  server.route('/moved', (_req, res) => res.writeHead(302, { location: '/meta.json' }).end('moved to /meta.json'));
  server.route('/huge', (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(10_000)),
  );
  // Answers nothing: the connection stays open until the server closes.
  server.route('/silent', () => undefined);
});
afterAll(() => server.close());

const fetchWith = (overrides: Partial<Parameters<typeof outboundFetch>[0]> = {}) =>
  outboundFetch({ allowLoopback: true, timeoutMs: 5_000, maxBytes: 5_000, ca: server.ca, ...overrides });

test('fetches JSON over https on loopback with the test CA, forwarding accept and naming the service', async () => {
  const response = await fetchWith()(`${server.url}/meta.json`, {
    method: 'GET',
    headers: new Headers({ accept: 'application/json' }),
    redirect: 'manual',
  });
  expect(response).toBeInstanceOf(Response);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(document);
  expect(response.headers.get('x-seen-accept')).toBe('application/json');
  expect(response.headers.get('x-seen-agent')).toBe(OUTBOUND_FETCH_USER_AGENT);
});

test('connects to the address the lookup judged, for a name (the certificate also names localhost)', async () => {
  const port = new URL(server.url).port;
  const response = await fetchWith({ lookup: async () => ['127.0.0.1'] })(`https://localhost:${port}/meta.json`);
  expect(await response.json()).toEqual(document);
});

test('loopback is refused unless allowed', async () => {
  await expect(fetchWith({ allowLoopback: false })(`${server.url}/meta.json`)).rejects.toThrow(
    '127.0.0.1 is a private or special-use address',
  );
  const port = new URL(server.url).port;
  await expect(
    fetchWith({ allowLoopback: false, lookup: async () => ['127.0.0.1'] })(`https://localhost:${port}/meta.json`),
  ).rejects.toThrow(/^localhost resolves to a private or special-use address$/);
});

test.each(['10.0.0.1', '169.254.169.254'])(
  'a name resolving to %s is refused, naming the host but not its address',
  async (address) => {
    const lookup = async () => [address];
    await expect(fetchWith({ lookup })('https://metadata.example.test/meta.json')).rejects.toThrow(
      /^metadata\.example\.test resolves to a private or special-use address$/,
    );
  },
);

test('an address literal in a private range is refused without a lookup', async () => {
  await expect(fetchWith()('https://169.254.169.254/latest/meta-data')).rejects.toThrow(/private or special-use/);
});

test('a redirect comes back as the 3xx itself, not followed and without a body', async () => {
  const response = await fetchWith()(`${server.url}/moved`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe('/meta.json');
  expect(response.body).toBeNull();
});

test('a body over the cap fails', async () => {
  await expect(fetchWith({ maxBytes: 1_000 })(`${server.url}/huge`)).rejects.toThrow('response too large');
});

test('a server that does not answer times out', async () => {
  await expect(fetchWith({ timeoutMs: 200 })(`${server.url}/silent`)).rejects.toThrow(/no response within 0.2 s/);
});

test("the caller's signal aborts the request", async () => {
  const controller = new AbortController();
  const pending = fetchWith()(`${server.url}/silent`, { signal: controller.signal });
  controller.abort(new Error('caller gave up'));
  await expect(pending).rejects.toThrow('caller gave up');
});

test('an http: URL is refused', async () => {
  const plain = server.url.replace('https:', 'http:');
  await expect(fetchWith()(`${plain}/meta.json`)).rejects.toThrow(/only https URLs/);
});

test('a certificate from an untrusted CA fails without the ca option', async () => {
  await expect(fetchWith({ ca: undefined })(`${server.url}/meta.json`)).rejects.toThrow(/self[- ]signed/i);
});

test('a dispatcher in init is ignored', async () => {
  const response = await fetchWith()(`${server.url}/meta.json`, {
    dispatcher: { bogus: true },
  } as unknown as RequestInit);
  expect(response.status).toBe(200);
});
