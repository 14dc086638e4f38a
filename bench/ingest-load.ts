/**
 * The load process of `npm run bench:ingest`: `connections` keep-alive connections, each posting the next
 * beacon (one per request, a new page view each, 3 metrics) as soon as the previous answer arrived, for
 * `seconds`. Prints one JSON line: requests, acknowledged (204), others, failures, per second, latency.
 *
 *   node bench/ingest-load.ts <url> <siteId> <connections> <seconds>
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';

const [url = '', site = '', connectionsArg = '64', secondsArg = '10'] = process.argv.slice(2);
const target = new URL(url);
const connections = Number(connectionsArg);
const seconds = Number(secondsArg);
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const prefix = randomBytes(6).toString('base64url');
let counter = 0;

function body(): string {
  const pv = `${prefix}${(counter++).toString(36).padStart(10, '0')}`;
  return JSON.stringify({
    v: 1,
    site,
    pv,
    seq: 1,
    path: '/products/shoes',
    device: 'mobile',
    rate: 100,
    metrics: [
      {
        name: 'LCP',
        value: 1800 + (counter % 2000),
        id: `v5-${pv}-1`,
        nav: 'navigate',
        target: 'main > img.hero',
        url: 'https://cdn.example.com/hero.jpg',
      },
      { name: 'CLS', value: (counter % 30) / 100, id: `v5-${pv}-2`, nav: 'navigate', target: 'div.banner' },
      {
        name: 'INP',
        value: 80 + (counter % 400),
        id: `v5-${pv}-3`,
        nav: 'navigate',
        target: 'button#buy',
        type: 'pointer',
      },
    ],
  });
}

function post(payload: string): Promise<number> {
  return new Promise((resolvePost, reject) => {
    const req = request(
      target,
      {
        agent,
        method: 'POST',
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          'content-length': Buffer.byteLength(payload),
          origin: 'https://example.com',
          'user-agent':
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolvePost(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const latencies: number[] = [];
let acknowledged = 0;
let others = 0;
let failures = 0;
const started = performance.now();
const deadline = started + seconds * 1000;
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        const status = await post(body());
        latencies.push(performance.now() - sent);
        if (status === 204) acknowledged += 1;
        else others += 1;
      } catch {
        failures += 1;
      }
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
console.log(
  JSON.stringify({
    requests: latencies.length,
    acknowledged,
    others,
    failures,
    perSecond: latencies.length / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  }),
);
