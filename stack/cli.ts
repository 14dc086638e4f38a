import { loadConfig, type Config } from '../infra/config.ts';
import { assertNodeVersion } from '../infra/runtime.ts';
import { createKnex } from '../db/knex.ts';
import { createStorage } from '../db/store/index.ts';
import { prepareSchemas } from '../db/prepare.ts';
import { ensureDemoAccess } from '../services/demo.ts';
import { startMailSink, type MailSink } from './mail-sink.ts';
import {
  localDemoEnvironment,
  serviceDefinitions,
  spawnService,
  stopService,
  waitReady,
  type ServiceProcess,
} from './services.ts';
import { stackDown, stackStatus, stackUp } from './stack.ts';
import { startPrometheus, type LocalPrometheus } from './prometheus.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import { offsetPorts, scaledLayout, type ScaledLayout } from './scaled.ts';

assertNodeVersion();
const log = (msg: string) => console.log(`[stack] ${msg}`);
const LOOPBACK_NOTICE =
  'Scans may reach loopback addresses (OUTBOUND_ALLOW_LOOPBACK=true) because this is a local demo; deployments refuse them.';

async function start(env: NodeJS.ProcessEnv, scaled: boolean): Promise<number> {
  const demoEnv = localDemoEnvironment(env);
  // The Temporal SDK's own metrics are on for the local service, next to the worker's health port.
  const serviceEnv = demoEnv.WORKER_SDK_METRICS_PORT?.trim()
    ? demoEnv
    : { ...demoEnv, WORKER_SDK_METRICS_PORT: String(loadConfig(demoEnv).worker.healthPort + 1) };
  const config = loadConfig(serviceEnv);
  // --scaled: several of every process behind local balancers (stack/scaled.ts, docs/scaling.md).
  const layout = scaled ? scaledLayout(config, serviceEnv, offsetPorts(config)) : null;
  // Ctrl-C while the backing services come up: they run in process groups of their own, so stop them here.
  let interrupted = false;
  const interruptStartup = () => {
    interrupted = true;
    log('interrupted: stopping what was started as soon as the backing services answer');
  };
  process.on('SIGINT', interruptStartup);
  process.on('SIGTERM', interruptStartup);
  const stack = await stackUp(config, log);
  process.off('SIGINT', interruptStartup);
  process.off('SIGTERM', interruptStartup);
  if (interrupted) {
    await stack.stop();
    log('stopped');
    return 130;
  }
  log(stack.started.length ? `started ${stack.started.join(', ')}` : 'all backing services were already running');
  const services: ServiceProcess[] = [];
  let mailSink: MailSink | null = null;
  let prometheus: LocalPrometheus | null = null;
  const balancers: Balancer[] = [];
  let shuttingDown: Promise<number> | null = null;
  const shutdown = (code: number) =>
    (shuttingDown ??= (async () => {
      log(layout ? 'stopping balancers and every process' : 'stopping api, worker, ingest, prometheus');
      await Promise.all(balancers.map((b) => b.close()));
      await Promise.all([...services.map((s) => stopService(s)), prometheus?.stop()]);
      await mailSink?.close();
      await stack.stop();
      log('stopped');
      return code;
    })());

  process.on('SIGINT', () => void shutdown(0).then((code) => process.exit(code)));
  process.on('SIGTERM', () => void shutdown(0).then((code) => process.exit(code)));

  try {
    await prepareSchemas(config, log);
    mailSink = await startMailSink(config, log);
    const definitions = layout
      ? scaledDefinitions(layout)
      : serviceDefinitions(config).map((def) => ({ ...def, env: serviceEnv }));
    for (const def of definitions) {
      const service = spawnService(def.name, def.entry, def.readyUrl, def.env);
      service.child.once('exit', (code, signal) => {
        if (shuttingDown) return;
        log(`${def.name} exited unexpectedly (${code ?? signal}); stopping everything`);
        void shutdown(1).then((c) => process.exit(c));
      });
      services.push(service);
    }
    await Promise.all(services.map((s) => waitReady(s)));
    for (const b of layout?.balancers ?? []) balancers.push(await startBalancer(b.host, b.port, b.backends));
    // The local Prometheus knows the one-of-each layout only.
    prometheus = layout ? null : startPrometheus(config, log);
  } catch (error) {
    log(`start failed: ${(error as Error).message}`);
    return shutdown(1);
  }
  const demo = config.env === 'development' ? await demoAccess(config) : null;
  if (layout) {
    printScaled(layout, config, demo);
    return new Promise<number>(() => undefined);
  }
  const [api, worker, ingest] = serviceDefinitions(config);
  console.log(
    [
      '',
      'The service is up. Ctrl-C stops everything this command started.',
      `  API          ${config.baseUrl}/api/v1   (ready: ${api!.readyUrl}; operator metrics: http://${config.api.metricsHost}:${config.api.metricsPort}/metrics)`,
      `  Reference    ${config.baseUrl}/docs   (the OpenAPI document rendered; try calls after signing in)`,
      `  MCP server   ${config.baseUrl}/mcp   (OAuth: ${config.baseUrl}/.well-known/oauth-authorization-server)`,
      `  Ingest       ${config.ingest.publicUrl}   (ready: ${ingest!.readyUrl}; operator metrics: http://${config.ingest.metricsHost}:${config.ingest.metricsPort}/metrics)`,
      `  Worker       ready: ${worker!.readyUrl}`,
      `  Temporal UI  ${config.temporal.uiUrl}`,
      ...(prometheus
        ? [
            `  Prometheus   ${prometheus.url}   (scrapes api, worker and ingest; alert rules from ops/prometheus/rules.yml)`,
          ]
        : []),
      ...(mailSink
        ? [
            `  Mail         ${mailSink.url} (a local sink: every alert e-mail is written to ${mailSink.dir} as an .eml file)`,
          ]
        : []),
      ...(config.outboundAllowLoopback ? ['', LOOPBACK_NOTICE] : []),
      ...(demo
        ? [
            '',
            `Demo account (Pro): sign in at ${config.baseUrl}/login as ${demo.email} / ${demo.password}`,
            `Demo API token (new at every start): ${demo.token}`,
            `  curl -H 'Authorization: Bearer ${demo.token}' ${config.baseUrl}/api/v1/me`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  return new Promise<number>(() => undefined); // runs until a signal arrives
}

/** The layout's processes as the start loop takes them: each with its own environment. */
function scaledDefinitions(layout: ScaledLayout) {
  return layout.processes.map((p) => {
    const def = serviceDefinitions(loadConfig(p.env, { keys: false })).find((d) => d.name === p.kind)!;
    // The name is the process's own; spawnService gives ingest instances their keyless environment by kind.
    return { name: p.name, kind: p.kind, entry: def.entry, readyUrl: def.readyUrl, env: p.env };
  });
}

function printScaled(layout: ScaledLayout, config: Config, demo: Awaited<ReturnType<typeof demoAccess>> | null) {
  const [api, ingest] = layout.balancers;
  console.log(
    [
      '',
      'The service is up, several of each process (--scaled). Ctrl-C stops everything this command started.',
      `  API          ${config.baseUrl}/api/v1   (balancer on ${api!.port} over ${api!.backends.map((b) => b.port).join(', ')})`,
      `  Ingest       ${config.ingest.publicUrl}   (balancer on ${ingest!.port} over ${ingest!.backends.map((b) => b.port).join(', ')})`,
      `  Regions      ${layout.regions.join(', ')} (POST /api/v1/scans {"region": ...})`,
      ...scaledDefinitions(layout).map((d) => `  ${d.name.padEnd(16)} ready: ${d.readyUrl}`),
      `  Temporal UI  ${config.temporal.uiUrl}`,
      ...(config.outboundAllowLoopback ? ['', LOOPBACK_NOTICE] : []),
      ...(demo
        ? [
            '',
            `Demo account (Pro): sign in at ${config.baseUrl}/login as ${demo.email} / ${demo.password}`,
            `Demo API token (new at every start): ${demo.token}`,
          ]
        : []),
      '',
    ].join('\n'),
  );
}

async function demoAccess(config: Config) {
  const knex = createKnex(config.databaseUrl, { min: 0, max: 1 });
  try {
    return await ensureDemoAccess(createStorage(knex));
  } finally {
    await knex.destroy();
  }
}

async function main(command: string | undefined): Promise<number> {
  const config = loadConfig();
  switch (command) {
    case 'up': {
      const stack = await stackUp(config, log);
      await prepareSchemas(config, log);
      log(
        stack.started.length
          ? `started ${stack.started.join(', ')} (they keep running; 'down' stops them)`
          : 'all backing services were already running',
      );
      return 0;
    }
    case 'down':
      await stackDown(config, log);
      return 0;
    case 'status': {
      const rows = await stackStatus(config);
      for (const row of rows) console.log(`${row.up ? 'up  ' : 'DOWN'}  ${row.service.padEnd(10)} ${row.detail}`);
      return rows.every((r) => r.up) ? 0 : 1;
    }
    case 'start':
      return start(process.env, process.argv.includes('--scaled'));
    default:
      console.error('usage: node stack/cli.ts up|down|status|start [--scaled]');
      return 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv[2])
    .then((code) => process.exit(code))
    .catch((error: unknown) => {
      console.error(`[stack] ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
