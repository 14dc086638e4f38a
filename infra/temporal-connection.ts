import { Client, Connection } from '@temporalio/client';
import type { Config } from './config.ts';
import { TEMPORAL_CHANNEL_ARGS } from '../core/temporal.ts';

/** Connecting to Temporal as a client, and the deadline every call made for a request runs under. */

export type TemporalSettings = Config['temporal'];

/** A lazy client: the process starts (and reports not ready) while Temporal is still coming up. */
export function createTemporalClient(settings: Pick<TemporalSettings, 'address' | 'namespace'>): Client {
  const connection = Connection.lazy({ address: settings.address, channelArgs: TEMPORAL_CHANNEL_ARGS });
  return new Client({ connection, namespace: settings.namespace });
}

/** Readiness: the namespace answers within 2 s. */
export async function temporalReachable(client: Client): Promise<void> {
  await client.connection.withDeadline(Date.now() + 2000, () =>
    client.connection.workflowService.describeNamespace({ namespace: client.options.namespace }),
  );
}

/** With Temporal away the client would keep retrying while the caller waits; a start gives up after this. */
export const START_DEADLINE_MS = 5000;

/** Runs calls to Temporal made by a request under the same deadline as a start, so an outage fails fast (503). */
export const withinDeadline = <T>(client: Client, call: () => Promise<T>): Promise<T> =>
  client.connection.withDeadline(Date.now() + START_DEADLINE_MS, call);
