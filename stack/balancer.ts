import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface Backend {
  host: string;
  port: number;
}

export interface Balancer {
  port: number;
  close(): Promise<void>;
}

/**
 * The local stand-in for compose's load balancer (ops/nginx/nginx.conf): a TCP balancer on host:port that
 * hands each new connection to the next backend in turn. A backend that refuses the connection (stopped,
 * killed, restarting) is skipped for that connection, so clients keep being served while one instance is away.
 * Connections are not moved: a kept-alive connection stays on its backend until either side closes it.
 */
export async function startBalancer(host: string, port: number, backends: Backend[]): Promise<Balancer> {
  if (backends.length === 0) throw new Error('a balancer needs at least one backend');
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  let next = 0;

  const connect = (client: Socket, tried: number) => {
    if (tried >= backends.length || client.destroyed) {
      client.destroy();
      return;
    }
    const backend = backends[next++ % backends.length]!;
    const upstream = createConnection(backend);
    track(upstream);
    let connected = false;
    upstream.on('error', () => {
      if (connected) client.destroy();
      else connect(client, tried + 1);
    });
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.resume();
    });
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    client.on('error', () => client.destroy());
    connect(client, 0);
  });
  await new Promise<void>((listening, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => listening());
  });
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
