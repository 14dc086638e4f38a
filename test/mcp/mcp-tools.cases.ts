import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FixtureSites } from '../../fixtures/sites.ts';
import { call, createTestUser } from '../harness/api.ts';
import { discover, obtainTokens, registerClient } from '../harness/oauth.ts';
import type { ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';

const body = (result: CallToolResult) =>
  JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
/** Image URLs are signed with an expiry in whole seconds: two reads a moment apart may differ only there. */
const unsigned = (value: unknown) =>
  JSON.parse(JSON.stringify(value).replace(/\?expires=\d+&signature=[^"]+/g, '')) as unknown;
const message = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** What these cases need of the stack they share (test/mcp/mcp.test.ts). */
export interface McpToolsStack {
  stack: ScanStack;
  sites: FixtureSites;
}

/**
 * The MCP server through the MCP SDK's own client (Streamable HTTP), with a personal token (accepted at /mcp
 * like everywhere) or an OAuth token for the MCP resource; one scan by the worker (a recorded Lighthouse run
 * replayed) for start_scan's wait.
 */
export function mcpToolsCases(shared: () => McpToolsStack): void {
  describe('MCP tools: the HTTP edge and each tool through the SDK client', () => {
    let stack: ScanStack;
    let sites: FixtureSites;
    beforeAll(() => {
      ({ stack, sites } = shared());
    });

    async function connect(token: string): Promise<Client> {
      const client = new Client({ name: 'mcp-tools-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${stack.api.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    }

    describe('the HTTP edge', () => {
      it('401 without a token, with the challenge naming the protected resource metadata', async () => {
        const res = await fetch(`${stack.api.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
        expect(res.headers.get('www-authenticate')).toBe(
          `Bearer resource_metadata="${stack.api.config.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
        );
      });

      it('publishes RFC 9728 metadata for the MCP server and the REST API', async () => {
        const base = stack.api.config.baseUrl;
        for (const [path, resource] of [
          ['/mcp', `${base}/mcp`],
          ['/api/v1', `${base}/api/v1`],
        ] as const) {
          const res = await fetch(`${stack.api.url}/.well-known/oauth-protected-resource${path}`);
          expect(res.status).toBe(200);
          expect(await res.json()).toMatchObject({
            resource,
            authorization_servers: [base],
            scopes_supported: ['read', 'write'],
            bearer_methods_supported: ['header'],
          });
        }
      });

      it('GET and DELETE are 405 (a stateless server)', async () => {
        const { token } = await createTestUser(stack.api, 'starter');
        for (const method of ['GET', 'DELETE']) {
          const res = await fetch(`${stack.api.url}/mcp`, { method, headers: { authorization: `Bearer ${token}` } });
          expect(res.status).toBe(405);
          expect(res.headers.get('allow')).toBe('POST');
        }
      });
    });

    describe('tools', () => {
      it('lists every tool with its input schema', async () => {
        const { token } = await createTestUser(stack.api, 'starter');
        const client = await connect(token);
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(
          [
            'get_scan',
            'get_target_history',
            'list_alerts',
            'list_rum_sites',
            'list_scans',
            'list_targets',
            'mark_alerts_read',
            'rum_history',
            'rum_slowest_pages',
            'rum_summary',
            'start_scan',
          ].sort(),
        );
        const getScan = tools.find((t) => t.name === 'get_scan')!;
        expect(getScan.inputSchema).toMatchObject({ type: 'object', required: ['id'] });
        expect(tools.find((t) => t.name === 'start_scan')!.inputSchema.properties).toHaveProperty('url');
        await client.close();
      });

      it('get_scan answers exactly what GET /scans/{id} answers; list_scans finds it', async () => {
        const { token } = await createTestUser(stack.api, 'starter');
        const started = await call(stack.api, '/scans', {
          token,
          method: 'POST',
          body: { url: `${sites.origin}/fast/` },
        });
        const id = (started.body.data as { id: string }).id;
        const client = await connect(token);
        const viaMcp = (await client.callTool({ name: 'get_scan', arguments: { id } })) as CallToolResult;
        expect(viaMcp.isError).toBeFalsy();
        expect(body(viaMcp)).toEqual((await call(stack.api, `/scans/${id}`, { token })).body);
        const listed = (await client.callTool({ name: 'list_scans', arguments: { limit: 5 } })) as CallToolResult;
        expect((body(listed).data as Array<{ public_id: string }>).map((s) => s.public_id)).toContain(id);
        await client.close();
      });

      it("errors are tool errors with the API's messages: 404, validation", async () => {
        const { token } = await createTestUser(stack.api, 'starter');
        const client = await connect(token);
        const missing = (await client.callTool({
          name: 'get_scan',
          arguments: { id: '01aaaaaaaaaaaaaaaaaaaaaaaa' },
        })) as CallToolResult;
        expect(missing.isError).toBe(true);
        expect(message(missing)).toBe('Not found.');
        const invalid = (await client.callTool({ name: 'list_scans', arguments: { limit: 1000 } })) as CallToolResult;
        expect(invalid.isError).toBe(true);
        expect(invalid.structuredContent).toMatchObject({ status: 422 });
        const badUrl = (await client.callTool({
          name: 'start_scan',
          arguments: { url: 'not a url' },
        })) as CallToolResult;
        expect(badUrl.isError).toBe(true);
        expect(badUrl.structuredContent).toMatchObject({ status: 422 });
        await client.close();
      });

      it('each tool call counts one unit of the daily limit; the handshake and the tool list count none', async () => {
        const { token } = await createTestUser(stack.api, 'starter');
        const usedBefore = Number((await call(stack.api, '/me', { token })).headers.get('x-ratelimit-used'));
        const client = await connect(token);
        await client.listTools();
        await client.callTool({ name: 'list_scans', arguments: {} });
        await client.callTool({ name: 'list_targets', arguments: {} });
        await client.close();
        const usedAfter = Number((await call(stack.api, '/me', { token })).headers.get('x-ratelimit-used'));
        // Two tool calls, plus the second /me itself.
        expect(usedAfter - usedBefore).toBe(3);
      });

      it('a read-only OAuth token reads but cannot start a scan (a tool error naming the scope)', async () => {
        const password = 'correct horse battery staple';
        const { user } = await createTestUser(stack.api, 'starter', password);
        const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
        await web.signIn(user.email, password);
        const as = await discover(stack.api);
        const redirect = 'http://127.0.0.1:8976/cb';
        const client = await registerClient(as, { redirect_uris: [redirect] });
        const tokens = await obtainTokens(as, client, web, stack.api.config.baseUrl, redirect, {
          scope: 'read',
          resource: `${stack.api.config.baseUrl}/mcp`,
        });
        const mcp = await connect(tokens.access_token);
        expect(((await mcp.callTool({ name: 'list_scans', arguments: {} })) as CallToolResult).isError).toBeFalsy();
        const refused = (await mcp.callTool({
          name: 'start_scan',
          arguments: { url: `${sites.origin}/fast/` },
        })) as CallToolResult;
        expect(refused.isError).toBe(true);
        expect(message(refused)).toMatch(/needs "write"/);
        await mcp.close();
      });

      it('start_scan with wait runs a real scan, reports progress, and returns the finished result', async () => {
        const { token } = await createTestUser(stack.api, 'starter');
        const client = await connect(token);
        const progress: string[] = [];
        const result = (await client.callTool(
          { name: 'start_scan', arguments: { url: `${sites.origin}/fast/`, wait: true } },
          undefined,
          {
            onprogress: (p) => void progress.push(p.message ?? String(p.progress)),
            timeout: 600_000,
            resetTimeoutOnProgress: true,
          },
        )) as CallToolResult;
        expect(result.isError).toBeFalsy();
        const scan = body(result).data as { public_id: string; status: string };
        expect(scan.status).toBe('finished');
        expect(unsigned(body(result))).toEqual(
          unsigned((await call(stack.api, `/scans/${scan.public_id}`, { token })).body),
        );
        expect(JSON.stringify(body(result))).toContain('signature=');
        expect(progress.length).toBeGreaterThan(0);
        expect(progress[0]).toContain(scan.public_id);
        await client.close();
      }, 600_000);
    });
  });
}
