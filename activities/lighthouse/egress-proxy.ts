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
 *
 * Since Chromium leaves the lookups and the connections to the sites to the proxy, the proxy times them
 * (`upstream`): for each tunnel and each plain HTTP request, its DNS lookup (when it waited for one) and its
 * connection to the site (when it opened one), on the monotonic clock of Chromium's own timestamps, for the
 * request waterfall (request-timings.ts).
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

/** What the proxy did for one tunnel or plain HTTP request on its way to the site. */
export interface UpstreamTiming {
  /** host:port as requested */
  target: string;
  /** The plain HTTP request's URL; absent for a tunnel. */
  url?: string;
  /** When the proxy received the tunnel's CONNECT or the request, in ms on the monotonic clock (`monotonicMs`). */
  at: number;
  /** How long it waited for the host's DNS lookup; null when it had the answer already or the host is an address. */
  dnsMs: number | null;
  /** How long connecting to the site took; null when a kept-alive connection was reused. */
  connectMs: number | null;
}

/** The clock of Chromium's protocol timestamps (its TimeTicks and Node's hrtime are both CLOCK_MONOTONIC), in ms. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Upstream timings kept at most: a page's requests, however many, need no more. */
const MAX_UPSTREAM = 5000;

export interface EgressProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every destination refused or unreachable so far, in order. */
  failures: EgressFailure[];
  /** The lookups and connections of every tunnel and plain HTTP request so far, in order (the first MAX_UPSTREAM). */
  upstream: UpstreamTiming[];
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

  const upstream: UpstreamTiming[] = [];
  const resolved = new Set<string>();
  /** resolveHost, timed: the wait for a lookup not answered before (none for an address). */
  const timedResolve = async (hostname: string): Promise<{ resolution: Resolution; dnsMs: number | null }> => {
    const host = bare(hostname);
    const waited = !resolved.has(host) && isIP(host) === 0;
    const started = monotonicMs();
    const resolution = await resolveHost(host);
    resolved.add(host);
    return { resolution, dnsMs: waited ? monotonicMs() - started : null };
  };
  const timed = (timing: UpstreamTiming) => {
    if (upstream.length < MAX_UPSTREAM) upstream.push(timing);
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
  async function open(host: string, port: number, at: number): Promise<Socket | Omit<EgressFailure, 'target'>> {
    const { resolution, dnsMs } = await timedResolve(host);
    if ('failure' in resolution) return resolution.failure;
    const connecting = monotonicMs();
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
        timed({ target: targetOf(host, port), at, dnsMs, connectMs: monotonicMs() - connecting });
        done(socket);
      });
    });
  }

  async function handleConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const at = monotonicMs();
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
    const site = await open(host, Number(port), at);
    if (!(site instanceof Socket)) {
      record(targetOf(host, port), site);
      client.end(`HTTP/1.1 ${site.code === 'blocked_address' ? '403 Forbidden' : '502 Bad Gateway'}\r\n\r\n`);
      return;
    }
    site.on('error', () => client.destroy());
    client.on('close', () => site.destroy());
    site.on('close', () => client.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) site.write(head);
    site.pipe(client);
    client.pipe(site);
  }

  // Plain HTTP: kept-alive upstream connections, six per origin as a browser would open.
  const agent = new Agent({ keepAlive: true, maxSockets: 6, lookup: pinnedLookup });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = monotonicMs();
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
    const { resolution, dnsMs } = await timedResolve(target.hostname);
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
    let connectMs: number | null = null;
    forward.on('socket', (socket) => {
      if (!socket.connecting) return; // a kept-alive connection
      const connecting = monotonicMs();
      socket.once('connect', () => (connectMs = monotonicMs() - connecting));
    });
    forward.on('response', (answer) => {
      timed({ target: targetOf(target.hostname, port), url: target.href, at, dnsMs, connectMs });
      const raw: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(answer.rawHeaders[i]!.toLowerCase()))
          raw.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, raw);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
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
    upstream,
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
