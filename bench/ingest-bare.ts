/**
 * The baseline of `npm run bench:ingest`: a bare node:http server that reads each body, parses the JSON and
 * answers 204, nothing else. Prints its port on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let parsed = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const beacon = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { metrics?: unknown[] };
    parsed += beacon.metrics?.length ?? 0;
    res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(String((server.address() as AddressInfo).port)));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(parsed >= 0 ? 0 : 1));
});
