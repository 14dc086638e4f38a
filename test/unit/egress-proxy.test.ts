import { createServer as createHttpServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { monotonicMs, startEgressProxy, type EgressProxy } from '../../activities/lighthouse/egress-proxy.ts';

/**
 * The scan browser's egress proxy on real sockets: what it lets through, byte for byte, and what it refuses, and
 * the failure it records for each refusal. Local servers only; that a real Chromium's requests go through it is
 * test/scans/egress-proxy.test.ts.
 */
const GZIPPED = gzipSync(Buffer.from('<p>compressed body</p>'));
let origin: Server;
let originPort: number;
const originHits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
let tunnelTarget: ReturnType<typeof createTcpServer>;
let tunnelPort: number;
let tunnelConnections = 0;
const proxies: EgressProxy[] = [];

const listen = (server: Server | ReturnType<typeof createTcpServer>, host: string) =>
  new Promise<number>((resolveListen) =>
    server.listen(0, host, () => resolveListen((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  origin = createHttpServer((req, res) => {
    originHits.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(
      200,
      [
        ['Content-Type', 'text/html'],
        ['Content-Encoding', 'gzip'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
        ['Cache-Control', 'max-age=60'],
        ['Connection', 'keep-alive'],
      ].flat(),
    );
    res.end(GZIPPED);
  });
  originPort = await listen(origin, '0.0.0.0');
  // An echo server standing in for a TLS origin: a tunnel carries bytes, whatever they are.
  tunnelTarget = createTcpServer((socket) => {
    tunnelConnections++;
    socket.pipe(socket);
  });
  tunnelPort = await listen(tunnelTarget, '127.0.0.1');
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  origin.closeAllConnections();
  await new Promise((r) => origin.close(r));
  await new Promise((r) => tunnelTarget.close(r));
});

/** A proxy for a scan of `scannedUrl` (by default one whose port is the echo server's, so tunnels to it are allowed). */
async function proxy(allowLoopback: boolean, scannedUrl = `https://127.0.0.1:${tunnelPort}/`): Promise<EgressProxy> {
  const started = await startEgressProxy({ allowLoopback, scannedUrl });
  proxies.push(started);
  return started;
}

function get(
  proxyUrl: string,
  target: string,
): Promise<{ status: number; rawHeaders: string[]; body: Buffer } | { error: string }> {
  const { port } = new URL(proxyUrl);
  return new Promise((resolveGet) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: target,
        headers: {
          host: new URL(target).host,
          'accept-encoding': 'gzip',
          'x-custom': 'kept',
          'proxy-connection': 'keep-alive',
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolveGet({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolveGet({ error: error.code ?? error.message }));
    req.end();
  });
}

function tunnel(proxyUrl: string, target: string): Promise<{ statusLine: string; echo: string }> {
  const { port } = new URL(proxyUrl);
  return new Promise((resolveTunnel, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const statusLine = received.slice(0, received.indexOf('\r\n'));
      if (!statusLine.includes(' 200 ')) {
        socket.destroy();
        resolveTunnel({ statusLine, echo: '' });
        return;
      }
      const echoed = received.slice(end + 4);
      if (echoed === '') socket.write('ping through the tunnel');
      else {
        socket.destroy();
        resolveTunnel({ statusLine, echo: echoed });
      }
    });
    socket.on('error', reject);
  });
}

it('forwards plain HTTP byte for byte: compressed body untouched, repeated headers kept, hop-by-hop dropped', async () => {
  const egress = await proxy(true);
  const res = await get(egress.url, `http://127.0.0.1:${originPort}/page?q=1`);
  if ('error' in res) throw new Error(res.error);
  expect(res.status).toBe(200);
  expect(res.body.equals(GZIPPED)).toBe(true);
  const names = res.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  expect(names.filter((n) => n === 'set-cookie')).toHaveLength(2);
  expect(names).toContain('content-encoding');
  expect(originHits.at(-1)).toMatchObject({
    url: '/page?q=1',
    headers: { 'x-custom': 'kept', 'accept-encoding': 'gzip' },
  });
  expect(originHits.at(-1)!.headers['proxy-connection']).toBeUndefined();
});

it('tunnels CONNECT to an allowed host and carries bytes both ways', async () => {
  const egress = await proxy(true);
  const result = await tunnel(egress.url, `127.0.0.1:${tunnelPort}`);
  expect(result.statusLine).toMatch(/^HTTP\/1\.1 200/);
  expect(result.echo).toBe('ping through the tunnel');
  // By name: the upstream is reached through the proxy's own checked resolution, not the system's.
  const byName = await tunnel(egress.url, `localhost:${tunnelPort}`);
  expect(byName.statusLine).toMatch(/^HTTP\/1\.1 200/);
  expect(byName.echo).toBe('ping through the tunnel');
});

it('times its lookups and connections to the sites, for the waterfall', async () => {
  const egress = await proxy(true);
  const before = monotonicMs();
  // Plain HTTP by name: the first request waits for the lookup and connects; the second has the answer and
  // reuses the kept-alive connection; an address needs no lookup.
  for (const path of ['/a', '/b']) await get(egress.url, `http://localhost:${originPort}${path}`);
  await get(egress.url, `http://127.0.0.1:${originPort}/c`);
  await tunnel(egress.url, `localhost:${tunnelPort}`);
  await tunnel(egress.url, `localhost:${tunnelPort}`);
  const [first, second, byAddress, tunnelFirst, tunnelSecond] = egress.upstream;
  expect(egress.upstream).toHaveLength(5);
  expect(first).toMatchObject({
    target: `localhost:${originPort}`,
    url: `http://localhost:${originPort}/a`,
    dnsMs: expect.any(Number),
    connectMs: expect.any(Number),
  });
  expect(second).toMatchObject({ url: `http://localhost:${originPort}/b`, dnsMs: null, connectMs: null });
  expect(byAddress).toMatchObject({ target: `127.0.0.1:${originPort}`, dnsMs: null, connectMs: expect.any(Number) });
  // A tunnel: the host was looked up already by then, and each tunnel opens its own connection.
  expect(tunnelFirst).toEqual({
    target: `localhost:${tunnelPort}`,
    at: expect.any(Number),
    dnsMs: null,
    connectMs: expect.any(Number),
  });
  expect(tunnelSecond).toMatchObject({ connectMs: expect.any(Number) });
  const after = monotonicMs();
  expect(egress.upstream.every((u) => u.at >= before && u.at <= after)).toBe(true);
  expect(egress.upstream.map((u) => u.at)).toEqual(egress.upstream.map((u) => u.at).sort((a, b) => a - b));
});

it('refuses special-use and private addresses without connecting, and says why', async () => {
  const egress = await proxy(true);
  const hitsBefore = originHits.length;
  expect(await get(egress.url, `http://0.0.0.0:${originPort}/secret`)).toEqual({
    error: expect.stringMatching(/ECONNRESET|socket hang up/),
  });
  expect(originHits.length).toBe(hitsBefore);
  expect(egress.failureFor(`http://0.0.0.0:${originPort}/secret`)).toMatchObject({
    code: 'blocked_address',
    message: expect.stringContaining('0.0.0.0'),
  });

  const refused = await tunnel(egress.url, `10.1.2.3:443`);
  expect(refused.statusLine).toMatch(/^HTTP\/1\.1 403/);
  expect(egress.failureFor('https://10.1.2.3/')).toMatchObject({ code: 'blocked_address' });
});

it('refuses loopback unless allowed', async () => {
  const egress = await proxy(false);
  const connectionsBefore = tunnelConnections;
  const refused = await tunnel(egress.url, `127.0.0.1:${tunnelPort}`);
  expect(refused.statusLine).toMatch(/^HTTP\/1\.1 403/);
  expect(tunnelConnections).toBe(connectionsBefore);
  const hitsBefore = originHits.length;
  expect(await get(egress.url, `http://localhost:${originPort}/`)).toHaveProperty('error');
  expect(originHits.length).toBe(hitsBefore);
  expect(egress.failureFor(`http://localhost:${originPort}/`)).toMatchObject({ code: 'blocked_address' });
});

it('records a refused connection as connection_failed, not as an answer from the site', async () => {
  const egress = await proxy(true);
  const closed = createTcpServer();
  const port = await listen(closed, '127.0.0.1');
  await new Promise((r) => closed.close(r));
  expect(await get(egress.url, `http://127.0.0.1:${port}/`)).toHaveProperty('error');
  expect(egress.failureFor(`http://127.0.0.1:${port}/`)).toMatchObject({ code: 'connection_failed' });
  const forThatPort = await proxy(true, `https://127.0.0.1:${port}/`);
  expect((await tunnel(forThatPort.url, `127.0.0.1:${port}`)).statusLine).toMatch(/^HTTP\/1\.1 502/);
});

describe('CONNECT ports', () => {
  it("tunnels only to 443, 80 and the scanned URL's port, without connecting elsewhere", async () => {
    const egress = await proxy(true, `http://127.0.0.1:${originPort}/`);
    const connectionsBefore = tunnelConnections;
    const refused = await tunnel(egress.url, `127.0.0.1:${tunnelPort}`);
    expect(refused.statusLine).toMatch(/^HTTP\/1\.1 403/);
    expect(tunnelConnections).toBe(connectionsBefore);
    expect(egress.failureFor(`https://127.0.0.1:${tunnelPort}/`)).toMatchObject({
      code: 'blocked_address',
      message: expect.stringContaining(`Port ${tunnelPort} is not allowed`),
    });
    // The scanned origin's own port is allowed (the origin is plain HTTP, the tunnel does not care).
    expect((await tunnel(egress.url, `127.0.0.1:${originPort}`)).statusLine).toMatch(/^HTTP\/1\.1 200/);
    // A scan of an https URL without a port: 443 and 80 only.
    const defaultPorts = await proxy(true, 'https://example.com/');
    expect((await tunnel(defaultPorts.url, `127.0.0.1:${tunnelPort}`)).statusLine).toMatch(/^HTTP\/1\.1 403/);
    expect(tunnelConnections).toBe(connectionsBefore);
  });
});
