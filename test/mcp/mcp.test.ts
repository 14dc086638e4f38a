import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { startHttpsServer, type TestHttpsServer } from '../harness/https-server.ts';
import { startScanStack, type ScanStack } from '../harness/scans.ts';
import { mcpOAuthCases } from './mcp-oauth.cases.ts';
import { mcpToolsCases } from './mcp-tools.cases.ts';

/**
 * The MCP server end to end, on one stack for all its cases (the API, a worker process replaying the recorded
 * Lighthouse runs of the fixture pages, their databases): starting one costs seconds of CPU. Each case works as
 * users of its own. The settings are what both sets of cases need: OAuth registrations up to 1000 an hour, and
 * the certificate of the https server that serves Client ID Metadata Documents trusted; the tools' cases
 * depend on neither being absent.
 */
let stack: ScanStack;
let sites: FixtureSites;
let docs: TestHttpsServer;
beforeAll(async () => {
  sites = await startFixtureSites();
  docs = await startHttpsServer();
  stack = await startScanStack({
    runner: 'replay',
    env: { OAUTH_REGISTRATIONS_PER_HOUR: '1000', OAUTH_METADATA_CA_FILE: docs.caFile },
  });
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await sites?.close();
  await docs?.close();
});

const shared = () => ({ stack, sites, docs });
mcpToolsCases(shared);
mcpOAuthCases(shared);
