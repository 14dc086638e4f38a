import { createServer, type AddressInfo } from 'node:net';

/** Ports this process has handed out: the kernel may hand a port just closed out again. */
const handedOut = new Set<number>();

/**
 * A TCP port free on 127.0.0.1 right now (the caller binds it soon after; someone else could take it first),
 * never one this process handed out before.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/** A different free port for each name (freePort's, one after the other). */
export async function freePorts<Name extends string>(names: readonly Name[]): Promise<Record<Name, number>> {
  const ports: Array<[Name, number]> = [];
  for (const name of names) ports.push([name, await freePort()]);
  return Object.fromEntries(ports) as Record<Name, number>;
}
