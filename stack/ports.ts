import { createServer, type AddressInfo } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the caller binds it soon after; someone else could take it first). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}
