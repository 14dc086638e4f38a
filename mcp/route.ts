import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context } from 'koa';
import { admitCall, type AuthDeps } from '../api/auth.ts';
import { readJsonBody } from '../api/body.ts';
import type { AnyRoute } from '../api/route.ts';
import type { Config } from '../infra/config.ts';
import { protectedResourceMetadataUrl, resourceUrl, type ResourceKind } from '../core/oauth/resources.ts';
import { SCOPES } from '../core/oauth/scopes.ts';
import { HttpError } from '../http/errors.ts';
import { mcpServer, mcpTools } from './server.ts';

export const MCP_PATH = '/mcp';

/**
 * The MCP server (Streamable HTTP, stateless: each POST is answered on its own) and the RFC 9728 metadata of
 * both protected resources. Every POST needs a valid token for the MCP resource (a personal token, or an
 * OAuth token issued for `<base>/mcp`): without one, 401 with the challenge naming the metadata, which is how
 * MCP clients find the authorization server. Only tool calls count against the daily limit.
 */
export function mcpRouter(deps: McpDeps): Router {
  const withTools: McpRouteDeps = { ...deps, tools: mcpTools(deps.routes) };
  const on = (handler: (deps: McpRouteDeps, ctx: Context) => Promise<void> | void) => (ctx: Context) =>
    handler(withTools, ctx);
  const router = new Router();
  router.get(new URL(protectedResourceMetadataUrl(deps.config.baseUrl, 'api')).pathname, on(serveApiResourceMetadata));
  router.get(new URL(protectedResourceMetadataUrl(deps.config.baseUrl, 'mcp')).pathname, on(serveMcpResourceMetadata));
  router.post(MCP_PATH, on(handleMcpRequest));
  router.get(MCP_PATH, notAllowed);
  router.delete(MCP_PATH, notAllowed);
  return router;
}

interface McpDeps {
  config: Config;
  routes: AnyRoute[];
  auth: AuthDeps;
}

/** The handlers' dependencies: the router's, and the tools made from the API's routes (once, at mount). */
type McpRouteDeps = McpDeps & { tools: ReturnType<typeof mcpTools> };

function serveResourceMetadata(deps: McpRouteDeps, ctx: Context, kind: ResourceKind): void {
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.body = resourceMetadata(deps.config.baseUrl, kind);
}

const serveApiResourceMetadata = (deps: McpRouteDeps, ctx: Context): void => serveResourceMetadata(deps, ctx, 'api');
const serveMcpResourceMetadata = (deps: McpRouteDeps, ctx: Context): void => serveResourceMetadata(deps, ctx, 'mcp');

/** One JSON-RPC POST: the token is checked for the MCP resource, then a server of its own answers it. */
async function handleMcpRequest(deps: McpRouteDeps, ctx: Context): Promise<void> {
  const admitted = await admitCall(deps.auth, {
    authorization: ctx.get('authorization'),
    resource: 'mcp',
    needs: 'read',
    challenge: protectedResourceMetadataUrl(deps.config.baseUrl, 'mcp'),
    count: false,
  });
  const message = await readJsonBody(ctx);
  const server = mcpServer({ tools: deps.tools, auth: deps.auth, admitted, request: ctx });
  // A plain JSON answer unless the call may report progress (start_scan waiting): cheaper for every other call.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !mayStream(message),
  });
  ctx.respond = false;
  ctx.res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, message);
}

function notAllowed(ctx: Context): void {
  ctx.set('Allow', 'POST');
  throw new HttpError(
    405,
    { message: 'This MCP server is stateless: send JSON-RPC messages with POST.' },
    { Allow: 'POST' },
  );
}

function resourceMetadata(baseUrl: string, kind: ResourceKind): Record<string, unknown> {
  return {
    resource: resourceUrl(baseUrl, kind),
    authorization_servers: [baseUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: kind === 'mcp' ? 'WebPerf scanner MCP server' : 'WebPerf scanner REST API',
    resource_documentation: `${baseUrl}/api/v1/openapi.json`,
  };
}

export const isMcpPath = (path: string): boolean =>
  path === MCP_PATH || path.startsWith('/.well-known/oauth-protected-resource/');

/** A tools/call asking start_scan to wait: its progress notifications need the event stream. */
function mayStream(message: unknown): boolean {
  const messages: unknown[] = Array.isArray(message) ? message : [message];
  return messages.some((m) => {
    const request = m as { method?: unknown; params?: { name?: unknown; arguments?: { wait?: unknown } } } | null;
    return (
      request?.method === 'tools/call' &&
      request.params?.name === 'start_scan' &&
      request.params.arguments?.wait === true
    );
  });
}
