import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestHttpsServer {
  /** https://127.0.0.1:PORT */
  url: string;
  /** The self-signed certificate (PEM), to trust as a CA. */
  ca: string;
  /** The same PEM on disk. */
  caFile: string;
  route(path: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

/** A real https server on 127.0.0.1 with a fresh self-signed certificate for 127.0.0.1 and localhost (made with the openssl CLI). */
export async function startHttpsServer(): Promise<TestHttpsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'https-server-'));
  const keyFile = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      caFile,
    ],
    { stdio: 'pipe' },
  );
  const ca = readFileSync(caFile, 'utf8');
  const routes = new Map<string, RouteHandler>();
  const server = createServer({ key: readFileSync(keyFile), cert: ca }, (req, res) => {
    const handler = routes.get(new URL(req.url ?? '/', 'https://127.0.0.1').pathname);
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca,
    caFile,
    route: (path, handler) => void routes.set(path, handler),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
