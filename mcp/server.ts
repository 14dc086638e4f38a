import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'koa';
import type { Admitted, AuthDeps } from '../api/auth.ts';
import { runRoute, type AnyRoute, type ApiContext } from '../api/route.ts';
import { isoTimestamp } from '../core/clock.ts';
import { allows } from '../core/oauth/scopes.ts';
import { HttpError } from '../http/errors.ts';
import { countApiCall } from '../services/usage.ts';
import { inputSchemaOf, routeInput, scopeOf, TOOLS, type ToolDefinition } from './tools.ts';

/** How long start_scan with wait=true waits, and how often it looks. */
export const SCAN_WAIT = { maxMs: 10 * 60_000, everyMs: 2_000 } as const;

interface Tool {
  definition: ToolDefinition;
  route: AnyRoute;
  inputSchema: Record<string, unknown>;
}

/** The tools over the API's own route objects: one list, built once. */
export function mcpTools(routes: AnyRoute[]): Tool[] {
  return TOOLS.map((definition) => {
    const route = routes.find((r) => r.method === definition.method && r.path === definition.path);
    if (!route)
      throw new Error(`MCP tool ${definition.name}: no route ${definition.method.toUpperCase()} ${definition.path}`);
    return { definition, route, inputSchema: inputSchemaOf(definition, route) };
  });
}

type CallOutcome = { ok: true; body: Record<string, unknown> } | { ok: false; result: CallToolResult };

const errorResult = (status: number, body: Record<string, unknown>): CallToolResult => ({
  isError: true,
  content: [
    {
      type: 'text',
      text:
        typeof body.message === 'string'
          ? body.message
          : typeof body.error === 'string'
            ? body.error
            : `HTTP ${status}`,
    },
  ],
  structuredContent: { status, ...body },
});

const success = (body: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(body) }],
  structuredContent: body,
});

/**
 * One MCP server per HTTP request (stateless Streamable HTTP). A tool call runs its route exactly as the REST
 * API would (validation, services, views; errors become tool errors with the API's message), after counting
 * one unit of the daily limit; a tool that changes something needs the `write` scope.
 */
export function mcpServer(deps: { tools: Tool[]; auth: AuthDeps; admitted: Admitted; request: Context }): Server {
  const { tools, admitted } = deps;
  const server = new Server(
    { name: 'webperf', title: 'WebPerf scanner', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      instructions:
        'Web-performance scans with Lighthouse: start a scan and read its scores and findings, monitored targets and their alerts, and live (real-user) Core Web Vitals.',
    },
  );

  let usage = admitted.usage;
  async function run(tool: Tool, args: Record<string, unknown>): Promise<CallOutcome> {
    const ctx = {
      state: { ...admitted, usage, requestId: deps.request.state.requestId as string },
      status: 200,
      body: undefined as unknown,
      get: (name: string) => deps.request.get(name),
      set: () => undefined,
    };
    try {
      await runRoute(tool.route, ctx as unknown as ApiContext, routeInput(tool.route, args));
      return { ok: true, body: (ctx.body ?? {}) as Record<string, unknown> };
    } catch (error) {
      if (error instanceof HttpError) return { ok: false, result: errorResult(error.status, error.body) };
      throw error;
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ definition, inputSchema }) => ({
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: inputSchema as { type: 'object' },
      annotations: definition.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.find((t) => t.definition.name === request.params.name);
    if (!tool) return errorResult(404, { message: `Unknown tool "${request.params.name}".` });
    const needed = scopeOf(tool.definition);
    if (!allows(admitted.principal.scopes, needed)) {
      return errorResult(403, {
        message: `This app was authorised with the scope "${admitted.principal.scopes.join(' ')}", which does not allow ${tool.definition.name}; it needs "${needed}".`,
      });
    }
    const now = deps.auth.clock();
    usage = await countApiCall(deps.auth.usage, admitted.user.id, admitted.plan, now);
    if (!usage.allowed) {
      deps.auth.onLimitRefused?.(admitted.plan.key);
      return errorResult(429, {
        message: 'Daily API request limit exceeded.',
        error: 'Daily API request limit exceeded.',
        limit: usage.limit,
        reset_at: isoTimestamp(usage.resetAt),
      });
    }
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const outcome = await run(tool, args);
    if (!outcome.ok) return outcome.result;
    if (!tool.definition.waits || args.wait !== true) return success(outcome.body);

    // start_scan with wait: read the scan until it has ended, telling the client how far it got.
    const id = String((outcome.body.data as { id?: unknown } | undefined)?.id ?? '');
    const getScan = tools.find((t) => t.definition.name === 'get_scan')!;
    const progressToken = extra._meta?.progressToken;
    const deadline = Date.now() + SCAN_WAIT.maxMs;
    let step = 0;
    for (;;) {
      const current = await run(getScan, { id });
      if (!current.ok) return current.result;
      const scan = current.body.data as { status?: string; progress?: unknown } | undefined;
      if (scan?.status === 'finished' || scan?.status === 'failed') return success(current.body);
      if (Date.now() > deadline || extra.signal.aborted)
        return success({ ...current.body, note: 'The scan is still running; call get_scan with its id later.' });
      if (progressToken !== undefined) {
        step += 1;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: step, message: `Scan ${id}: ${scan?.status ?? 'unknown'}` },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, SCAN_WAIT.everyMs));
    }
  });
  return server;
}
