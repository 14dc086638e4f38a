import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, type ClickHouseLayout, type Config } from '../../infra/config.ts';
import { createClickHouse, type ClickHouseClient } from '../../db/clickhouse/client.ts';
import { clusterNodeConfig, type ClusterNode } from '../../stack/clickhouse-cluster.ts';
import { startClickHouse, stopClickHouse, type ClickHouseInstance } from '../../stack/clickhouse.ts';
import { startZooKeeper, stopZooKeeper, type ZooKeeperInstance } from '../../stack/zookeeper.ts';
import { freePort, uniqueName } from '../harness/isolated.ts';
import { baseTestEnv, HARNESS_DIR } from '../harness/shared.ts';

export const CLUSTER = 'webperf_test';

export interface LocalCluster {
  zookeeper: ZooKeeperInstance;
  nodes: ClickHouseInstance[];
  stop(): Promise<void>;
}

/** One private ZooKeeper and a private ClickHouse per entry of `shards` (the shard number of each node). */
export async function startLocalCluster(shards: number[]): Promise<LocalCluster> {
  const zookeeper = { dir: resolve(HARNESS_DIR, uniqueName('zookeeper')), port: await freePort() };
  const nodes: ClickHouseInstance[] = [];
  const stop = async () => {
    for (const node of nodes) {
      await stopClickHouse(node);
      rmSync(node.dir, { recursive: true, force: true });
    }
    await stopZooKeeper(zookeeper);
    rmSync(zookeeper.dir, { recursive: true, force: true });
  };
  try {
    await startZooKeeper(zookeeper, () => undefined);
    const members: ClusterNode[] = [];
    for (const [i, shard] of shards.entries())
      members.push({ shard, replica: `r${i + 1}`, tcpPort: await freePort(), interserverPort: await freePort() });
    for (const member of members) {
      const node: ClickHouseInstance = {
        dir: resolve(HARNESS_DIR, uniqueName(`clickhouse_${member.replica}`)),
        httpPort: await freePort(),
        tcpPort: member.tcpPort,
        extraConfig: clusterNodeConfig({
          cluster: CLUSTER,
          zookeeperPort: zookeeper.port,
          nodes: members,
          self: member,
        }),
      };
      nodes.push(node);
      await startClickHouse(node, () => undefined);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { zookeeper, nodes, stop };
}

export const urlOf = (node: ClickHouseInstance): string => `http://127.0.0.1:${node.httpPort}`;

/** A client for the given nodes, in failover order, as the processes build it from their configuration. */
export function clientFor(nodes: ClickHouseInstance[], database: string, layout: ClickHouseLayout): ClickHouseClient {
  const clickhouse: Config['clickhouse'] = {
    ...loadConfig(baseTestEnv()).clickhouse,
    url: urlOf(nodes[0]!),
    replicaUrls: nodes.slice(1).map(urlOf),
    layout,
  };
  return createClickHouse({ clickhouse }, database);
}
