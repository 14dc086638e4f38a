/**
 * A small closed-loop HTTP load generator for the benchmarks (runs in a worker thread): `connections`
 * keep-alive connections, each sending the next request as soon as the previous answer arrived, for
 * `seconds`. Connection i uses tokens[i % tokens.length].
 */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  failures: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

interface LoadInput {
  url: string;
  tokens: string[];
  connections: number;
  seconds: number;
}

function get(agent: Agent, url: URL, token: string): Promise<number> {
  return new Promise((resolveGet, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolveGet(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function run(input: LoadInput): Promise<LoadResult> {
  const url = new URL(input.url);
  const agent = new Agent({ keepAlive: true, maxSockets: input.connections });
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + input.seconds * 1000;
  await Promise.all(
    Array.from({ length: input.connections }, async (_, i) => {
      const token = input.tokens[i % input.tokens.length]!;
      while (performance.now() < deadline) {
        const sent = performance.now();
        const status = await get(agent, url, token);
        latencies.push(performance.now() - sent);
        if (status !== 200) failures += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    failures,
    perSecond: latencies.length / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

if (parentPort && workerData) parentPort.postMessage(await run(workerData as LoadInput));
