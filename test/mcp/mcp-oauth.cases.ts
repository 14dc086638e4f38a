import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FixtureSites } from '../../fixtures/sites.ts';
import { call, createTestUser, type TestApi } from '../harness/api.ts';
import { MemoryOAuthProvider } from '../harness/mcp-oauth-client.ts';
import { authorizeInWeb, discover, obtainTokens, registerClient } from '../harness/oauth.ts';
import type { TestHttpsServer } from '../harness/https-server.ts';
import { waitForScan, type ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:33418/oauth/callback';

/** Image URLs are signed with an expiry in whole seconds: two reads a moment apart may differ only there. */
const unsigned = (value: unknown) =>
  JSON.parse(JSON.stringify(value).replace(/\?expires=\d+&signature=[^"]+/g, '')) as unknown;
const text = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');

/**
 * What these cases need of the stack they share (test/mcp/mcp.test.ts): `docs` serves Client ID Metadata
 * Documents on loopback https, with a certificate the API is told to trust.
 */
export interface McpOAuthStack {
  stack: ScanStack;
  sites: FixtureSites;
  docs: TestHttpsServer;
}

/**
 * An MCP client written by others (the MCP TypeScript SDK) connects to our MCP server with nothing but its
 * address: it gets the 401, discovers the protected resource and the authorization server, registers itself,
 * sends the user to consent (completed here by a signed-in web client), exchanges the code and calls tools,
 * reading a scan the stack's worker ran (replaying the fixture page's recorded Lighthouse run) through the
 * app's token.
 */
export function mcpOAuthCases(shared: () => McpOAuthStack): void {
  describe('MCP through OAuth: the SDK client discovers, registers, gets consent and reads a real scan', () => {
    let api: TestApi;
    let sites: FixtureSites;
    let docs: TestHttpsServer;
    beforeAll(() => {
      ({
        stack: { api },
        sites,
        docs,
      } = shared());
    });

    async function signedIn() {
      const { user, token } = await createTestUser(api, 'starter', PASSWORD);
      const web = new WebClient(api.url, api.config.baseUrl);
      expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
      return { user, token, web };
    }

    it('discovers, registers, gets consent, and calls tools with real data', async () => {
      const { user, token, web } = await signedIn();
      const mcpUrl = new URL(`${api.url}/mcp`);
      const provider = new MemoryOAuthProvider({ redirectUrl: REDIRECT, clientName: 'SDK test client' });

      const first = new Client({ name: 'sdk-test', version: '1.0.0' });
      await expect(
        first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      const authorizationUrl = provider.authorizationUrl!;
      expect(authorizationUrl.searchParams.get('resource')).toBe(`${api.config.baseUrl}/mcp`);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

      const landed = await authorizeInWeb(web, api.config.baseUrl, authorizationUrl);
      const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await transport.finishAuth(landed.searchParams.get('code')!);
      expect(provider.tokens()?.access_token).toEqual(expect.any(String));

      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      await client.connect(transport);
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['start_scan', 'get_scan', 'list_scans']));

      // A real scan started through the REST API with the user's personal token and run to its end by the worker,
      // read back through MCP with the app's token: the finished result, scores and all, as the REST API gives it.
      const started = await call(api, '/scans', { token, method: 'POST', body: { url: `${sites.origin}/fast/` } });
      expect(started.status).toBe(202);
      const id = (started.body.data as { id: string }).id;
      expect(await waitForScan(api, token, id)).toMatchObject({ status: 'finished' });
      const viaMcp = await client.callTool({ name: 'get_scan', arguments: { id } });
      expect(viaMcp.isError).toBeFalsy();
      const viaRest = await call(api, `/scans/${id}`, { token });
      const fromMcp = JSON.parse(text(viaMcp)) as {
        data: { status: string; result?: { scores?: Record<string, unknown> } };
      };
      expect(fromMcp.data.status).toBe('finished');
      expect(fromMcp.data.result?.scores).toEqual(expect.any(Object));
      expect(unsigned(fromMcp)).toEqual(unsigned(viaRest.body));
      const listed = await client.callTool({ name: 'list_scans', arguments: {} });
      expect(text(listed)).toContain(id);
      // The app appears on the user's API and apps page.
      expect((await web.get('/settings')).text).toContain('SDK test client');
      await client.close();
      expect(user.id).toBeGreaterThan(0);
    }, 600_000);

    it('a token issued for the REST API is refused at /mcp with the discovery challenge', async () => {
      const { web } = await signedIn();
      const as = await discover(api);
      const client = await registerClient(as, { redirect_uris: [REDIRECT] });
      const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
      expect((await call(api, '/me', { token: tokens.access_token })).status).toBe(200);
      const res = await fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain(
        `resource_metadata="${api.config.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
      );
    });

    it('an MCP client identified by a Client ID Metadata Document (https on loopback) connects without registering', async () => {
      const clientId = `${docs.url}/mcp-client.json`;
      docs.route('/mcp-client.json', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            client_id: clientId,
            client_name: 'Documented MCP client',
            redirect_uris: [REDIRECT],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      });
      const { web } = await signedIn();
      const mcpUrl = new URL(`${api.url}/mcp`);
      const provider = new MemoryOAuthProvider({
        redirectUrl: REDIRECT,
        clientName: 'Documented MCP client',
        clientMetadataUrl: clientId,
      });
      await expect(
        new Client({ name: 'sdk-test', version: '1.0.0' }).connect(
          new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }),
        ),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(clientId);
      // Nothing registered: no client is stored for it, under any key (other cases on this stack register theirs;
      // a registered client is found this way, the control).
      const storedClients = (id: string) =>
        api.db
          .knex('oauth_artifacts')
          .where({ model: 'Client' })
          .whereRaw("payload->>'client_id' = ?", [id])
          .count<Array<{ count: number | string }>>('* as count');
      const registered = await registerClient(await discover(api), { redirect_uris: [REDIRECT] });
      expect(await storedClients(registered.client_id)).toEqual([{ count: 1 }]);
      expect(await storedClients(clientId)).toEqual([{ count: 0 }]);
      const landed = await authorizeInWeb(web, api.config.baseUrl, provider.authorizationUrl!);
      const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await transport.finishAuth(landed.searchParams.get('code')!);
      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      await client.connect(transport);
      const listed = await client.callTool({ name: 'list_scans', arguments: {} });
      expect(listed.isError).toBeFalsy();
      await client.close();
      expect(await storedClients(clientId)).toEqual([{ count: 0 }]);
    });
  });
}
