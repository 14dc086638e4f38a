/**
 * Config sections that make a private ClickHouse (stack/clickhouse.ts) a node of a replicated or sharded
 * cluster on one machine: where ZooKeeper is, which shard and replica this node is (<macros>, read by
 * tableEngine's ZooKeeper paths), the cluster's nodes (<remote_servers>, read by Distributed tables and
 * ON CLUSTER), and its own interserver port (replicas fetch parts from each other over it).
 */
export interface ClusterNode {
  shard: number;
  replica: string;
  tcpPort: number;
  interserverPort: number;
}

export function clusterNodeConfig(options: {
  cluster: string;
  zookeeperPort: number;
  nodes: readonly ClusterNode[];
  self: ClusterNode;
}): string {
  const shards = [...new Set(options.nodes.map((node) => node.shard))].sort((a, b) => a - b);
  const shardXml = shards
    .map((shard) => {
      const replicas = options.nodes
        .filter((node) => node.shard === shard)
        .map((node) => `<replica><host>127.0.0.1</host><port>${node.tcpPort}</port></replica>`)
        .join('');
      return `<shard><internal_replication>true</internal_replication>${replicas}</shard>`;
    })
    .join('\n      ');
  return `  <interserver_http_host>127.0.0.1</interserver_http_host>
  <interserver_http_port>${options.self.interserverPort}</interserver_http_port>
  <zookeeper>
    <node><host>127.0.0.1</host><port>${options.zookeeperPort}</port></node>
    <session_timeout_ms>30000</session_timeout_ms>
  </zookeeper>
  <macros><shard>${options.self.shard}</shard><replica>${options.self.replica}</replica></macros>
  <remote_servers>
    <${options.cluster}>
      ${shardXml}
    </${options.cluster}>
  </remote_servers>
  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>
`;
}
