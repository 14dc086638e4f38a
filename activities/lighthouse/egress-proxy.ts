/**
 * The scan browser's only way out. Chromium sends every request through this proxy (`--proxy-server`, with
 * loopback not bypassed), and the proxy resolves each host itself, refuses private and special-use addresses
 * (core/outbound.ts), and connects to the very address it checked. So neither a redirect, nor a subresource,
 * nor a DNS answer that changes between check and connect (DNS rebinding) can reach the internal network.
 * Chromium never resolves names itself while a proxy is set.
 *
 * HTTPS goes through CONNECT tunnels (end to end TLS, HTTP/2 kept), to ports 443 and 80 and the scanned URL's
 * port only, so a page cannot open a raw byte stream to any other service of a host; plain HTTP (framed by
 * the proxy itself as HTTP requests) goes to any port of an allowed host and is forwarded byte for byte
 * (no decompression, headers as sent, hop-by-hop headers dropped). A refused destination gets no HTTP answer
 * of ours that could pass for the site's own: the tunnel is refused or the socket closed, and the failure is
 * recorded so the runner can report the real reason.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, Socket, type AddressInfo, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { FAILURE_DETAILS } from '../../core/scan/failures.ts';
import { checkScanTarget } from '../../infra/scan-target.ts';

export type EgressFailureCode = 'blocked_address' | 'dns_failed' | 'connection_failed';

export interface EgressFailure {
  /** host:port as requested */
  target: string;
  code: EgressFailureCode;
  message: string;
}

export interface EgressProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every destination refused or unreachable so far, in order. */
  failures: EgressFailure[];
  failureFor(url: string): EgressFailure | undefined;
  /** Opens tunnels to the scanned URL's own port too (set once the scan is known; the proxy starts ahead of it). */
  allowScannedUrl(url: string): void;
  close(): Promise<void>;
}

type Resolution = { addresses: string[] } | { failure: Omit<EgressFailure, 'target'> };

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

const targetOf = (host: string, port: string | number) => `${host.toLowerCase()}:${port}`;
/** An IPv6 literal without its URL brackets. */
const bare = (host: string) => host.replace(/^\[|\]$/g, '');

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}

/** CONNECT goes to these ports and to the scanned URL's own. */
const TUNNEL_PORTS = [443, 80];

export async function startEgressProxy(options: { allowLoopback: boolean; scannedUrl?: string }): Promise<EgressProxy> {
  const failures: EgressFailure[] = [];
  const tunnelPorts = new Set(TUNNEL_PORTS);
  const allowScannedUrl = (url: string) => {
    const scanned = new URL(url);
    tunnelPorts.add(Number(scanned.port) || defaultPort(scanned.protocol));
  };
  if (options.scannedUrl) allowScannedUrl(options.scannedUrl);
  // One answer per host for the whole run: what was checked is what is used.
  const resolutions = new Map<string, Promise<Resolution>>();

  const resolveHost = (hostname: string): Promise<Resolution> => {
    const host = bare(hostname);
    let pending = resolutions.get(host);
    if (!pending) {
      pending = checkScanTarget(host, { allowLoopback: options.allowLoopback }).then((verdict): Resolution =>
        verdict.allowed
          ? { addresses: verdict.addresses }
          : { failure: { code: verdict.code, message: verdict.reason } },
      );
      resolutions.set(host, pending);
    }
    return pending;
  };

  const record = (target: string, failure: Omit<EgressFailure, 'target'>) => {
    failures.push({ target, ...failure });
  };

  // Every upstream connection resolves through here: only the addresses resolveHost checked.
  const pinnedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    void resolveHost(hostname).then((resolution) => {
      if ('failure' in resolution)
        return callback(Object.assign(new Error(resolution.failure.message), { code: 'EREFUSED' }), '', 4);
      const all = resolution.addresses.map((address) => ({ address, family: isIP(address) }));
      if (lookupOptions.all) return (callback as unknown as (e: null, a: typeof all) => void)(null, all);
      callback(null, all[0]!.address, all[0]!.family);
    });
  };

  /** A tunnel's upstream: the first checked address that answers. */
  async function open(host: string, port: number): Promise<Socket | Omit<EgressFailure, 'target'>> {
    const resolution = await resolveHost(host);
    if ('failure' in resolution) return resolution.failure;
    return new Promise((done) => {
      const socket = connect({ host: bare(host), port, lookup: pinnedLookup });
      const failed = (error: NodeJS.ErrnoException) =>
        done({
          code: 'connection_failed',
          message: FAILURE_DETAILS.connectionFailed(`${host}:${port}`, error.code ?? error.message),
        });
      socket.once('error', failed);
      socket.once('connect', () => {
        socket.removeListener('error', failed);
        done(socket);
      });
    });
  }

  async function handleConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!match) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host, port] = match as unknown as [string, string, string];
    if (!tunnelPorts.has(Number(port))) {
      record(targetOf(host, port), {
        code: 'blocked_address',
        message: FAILURE_DETAILS.tunnelPortRefused(Number(port), [...tunnelPorts]),
      });
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = await open(host, Number(port));
    if (!(upstream instanceof Socket)) {
      record(targetOf(host, port), upstream);
      client.end(`HTTP/1.1 ${upstream.code === 'blocked_address' ? '403 Forbidden' : '502 Bad Gateway'}\r\n\r\n`);
      return;
    }
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  }

  // Plain HTTP: kept-alive upstream connections, six per origin as a browser would open.
  const agent = new Agent({ keepAlive: true, maxSockets: 6, lookup: pinnedLookup });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not proxied http');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = Number(target.port) || defaultPort(target.protocol);
    const refuse = (failure: Omit<EgressFailure, 'target'>) => {
      record(targetOf(target.hostname, port), failure);
      res.socket?.destroy(); // no response of ours that the browser could take for the site's
    };
    const resolution = await resolveHost(target.hostname);
    if ('failure' in resolution) return refuse(resolution.failure);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    const forward = httpRequest({
      host: bare(target.hostname),
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
      agent,
    });
    forward.on('response', (upstream) => {
      const raw: string[] = [];
      for (let i = 0; i < upstream.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(upstream.rawHeaders[i]!.toLowerCase()))
          raw.push(upstream.rawHeaders[i]!, upstream.rawHeaders[i + 1]!);
      }
      res.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, raw);
      upstream.pipe(res);
      upstream.on('error', () => res.destroy());
    });
    forward.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) res.destroy();
      else
        refuse({
          code: 'connection_failed',
          message: FAILURE_DETAILS.connectionFailed(target.host, error.code ?? error.message),
        });
    });
    req.pipe(forward);
  }

  const sockets = new Set<Duplex>();
  const server = createServer((req, res) => void handleRequest(req, res));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    void handleConnect(req, client, head);
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    failures,
    failureFor(url: string) {
      const parsed = new URL(url);
      const target = targetOf(parsed.hostname, Number(parsed.port) || defaultPort(parsed.protocol));
      return failures.findLast((f) => f.target === target);
    },
    allowScannedUrl,
    async close() {
      agent.destroy();
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolveClose) => server.close(resolveClose));
    },
  };
}
