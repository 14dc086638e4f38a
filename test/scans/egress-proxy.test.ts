import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { startEgressProxy, type EgressProxy } from '../../activities/lighthouse/egress-proxy.ts';
import { launchBrowser } from '../harness/browser.ts';

/**
 * The scan browser's egress proxy with a real Chromium behind it, as the runner sets it up: a page's own
 * requests go through it and meet its rules. The proxy's rules and refusals on plain sockets are
 * test/unit/egress-proxy.test.ts.
 */
let tunnelTarget: ReturnType<typeof createTcpServer>;
let tunnelPort: number;
let tunnelConnections = 0;
const proxies: EgressProxy[] = [];

const listen = (server: Server | ReturnType<typeof createTcpServer>, host: string) =>
  new Promise<number>((resolveListen) =>
    server.listen(0, host, () => resolveListen((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  // An echo server standing in for a TLS origin: a tunnel carries bytes, whatever they are.
  tunnelTarget = createTcpServer((socket) => {
    tunnelConnections++;
    socket.pipe(socket);
  });
  tunnelPort = await listen(tunnelTarget, '127.0.0.1');
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await new Promise((r) => tunnelTarget.close(r));
});

/** A proxy for a scan of `scannedUrl`. */
async function proxy(allowLoopback: boolean, scannedUrl: string): Promise<EgressProxy> {
  const started = await startEgressProxy({ allowLoopback, scannedUrl });
  proxies.push(started);
  return started;
}

describe('CONNECT ports', () => {
  it('a scanned page that fetches https on another port of an allowed host reaches nothing', async () => {
    const page = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>loading</title><script>
        fetch('https://127.0.0.1:${tunnelPort}/probe', { mode: 'no-cors' }).catch(() => undefined).finally(() => { document.title = 'done'; });
      </script>`);
    });
    const pagePort = await listen(page, '127.0.0.1');
    const visit = async (scannedUrl: string) => {
      const egress = await proxy(true, scannedUrl);
      const { browser, close } = await launchBrowser([
        `--proxy-server=${egress.url}`,
        '--proxy-bypass-list=<-loopback>',
      ]);
      try {
        const tab = await browser.newPage();
        await tab.goto(`http://127.0.0.1:${pagePort}/`);
        await tab.waitForFunction('document.title === "done"', { timeout: 60_000 });
      } finally {
        await close();
      }
      return egress;
    };
    try {
      const before = tunnelConnections;
      const egress = await visit(`http://127.0.0.1:${pagePort}/`);
      expect(tunnelConnections).toBe(before);
      expect(egress.failureFor(`https://127.0.0.1:${tunnelPort}/`)).toMatchObject({ code: 'blocked_address' });
      // The same page, scanned on the listener's port: the browser does get through (so the test can see a connection).
      await visit(`https://127.0.0.1:${tunnelPort}/`);
      expect(tunnelConnections).toBeGreaterThan(before);
    } finally {
      page.closeAllConnections();
      await new Promise((r) => page.close(r));
    }
  }, 120_000);
});
