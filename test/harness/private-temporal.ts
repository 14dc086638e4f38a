import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { ensureTemporalCli, startTemporal, stopTemporal, type TemporalInstance } from '../../stack/temporal.ts';
import { freePort, uniqueName } from './isolated.ts';
import { baseTestEnv, HARNESS_DIR } from './shared.ts';

export interface PrivateTemporal {
  address: string;
  namespace: string;
  /** Stops the server (SIGTERM); its sqlite file keeps every workflow for the next start. */
  stop(): Promise<void>;
  /** Starts it again on the same ports with the same file. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/**
 * A Temporal dev server of the test's own, on free ports with its own database file, for tests that stop
 * Temporal: the shared one on 7233 serves everybody else's tests. Started exactly as the stack starts its
 * own (stack/temporal.ts), with the same CLI (TEMPORAL_BIN, else the tools venv).
 */
export async function startPrivateTemporal(): Promise<PrivateTemporal> {
  const [port, uiPort] = [await freePort(), await freePort()];
  const config = loadConfig({
    ...baseTestEnv(),
    TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    TEMPORAL_UI_URL: `http://127.0.0.1:${uiPort}`,
  });
  const log = () => undefined;
  const cli = ensureTemporalCli(config, log);
  const instance: TemporalInstance = {
    dir: resolve(HARNESS_DIR, uniqueName('temporal')),
    host: '127.0.0.1',
    port,
    uiPort,
    namespace: config.temporal.namespace,
  };
  await startTemporal(cli, instance, log);
  let running = true;
  const stop = async () => {
    if (running) await stopTemporal(instance);
    running = false;
  };
  return {
    address: config.temporal.address,
    namespace: instance.namespace,
    stop,
    start: async () => {
      await startTemporal(cli, instance, log);
      running = true;
    },
    close: async () => {
      await stop();
      rmSync(instance.dir, { recursive: true, force: true });
    },
  };
}
