// The provider nodes a scale bench writes into ZooKeeper: Java-shaped URLs (the parameters a Java
// 2.7 provider registers), one distinct host per provider, all of one service.
import { Url } from "../../src/core/index.js";
import type { ZkClient } from "../../src/registry/zookeeper/zk-client.js";

export const SCALE_IFACE = "org.apache.dubbo.bench.ScaleService";
export const PROVIDERS_PATH = `/dubbo/${SCALE_IFACE}/providers`;
const WRITES_IN_FLIGHT = 200;

/**
 * Provider `index` as Java 2.7.23 registers it, on its own host so every provider is distinct:
 * 10.x.y.z:20880 (nothing listens: for lazy references), or with `port` 127.x.y.z:port (every
 * loopback address reaches one real server listening on all of them: for eager references).
 */
export function scaleProviderUrl(index: number, port?: number): Url {
  const low = `${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  return new Url({
    protocol: "dubbo",
    host: port === undefined ? `10.${low}` : `127.${low === "0.0.0" ? "0.0.1" : low}`,
    port: port ?? 20880,
    path: SCALE_IFACE,
    params: {
      anyhost: "true",
      application: "scale-provider",
      deprecated: "false",
      dubbo: "2.0.2",
      dynamic: "true",
      generic: "false",
      interface: SCALE_IFACE,
      methods: "echo,find,save,remove,list",
      pid: String(1000 + index),
      release: "2.7.23",
      side: "provider",
      threads: "200",
      timeout: "3000",
      timestamp: String(1_700_000_000_000 + index),
      weight: "100",
    },
  });
}

/** The reference's consumer URL as the directory benches subscribe it, with `extra` parameters. */
export function scaleConsumerUrl(extra: Readonly<Record<string, string>>): Url {
  return new Url({
    protocol: "consumer",
    host: "127.0.0.1",
    port: 0,
    path: SCALE_IFACE,
    params: {
      application: "scale-consumer",
      check: "false",
      dubbo: "2.0.2",
      interface: SCALE_IFACE,
      methods: "echo,find,save,remove,list",
      release: "2.7.23",
      side: "consumer",
      ...extra,
    },
  });
}

/** Writes providers `from` … `to - 1` as ephemeral nodes of `client`'s session. */
export async function writeProviders(
  client: ZkClient,
  from: number,
  to: number,
  port?: number,
): Promise<void> {
  await client.mkdirp(PROVIDERS_PATH);
  for (let start = from; start < to; start += WRITES_IN_FLIGHT) {
    const end = Math.min(to, start + WRITES_IN_FLIGHT);
    const writes: Array<Promise<void>> = [];
    for (let i = start; i < end; i++) writes.push(client.create(providerNode(i, port), true));
    await Promise.all(writes);
  }
}

export function providerNode(index: number, port?: number): string {
  return `${PROVIDERS_PATH}/${scaleProviderUrl(index, port).encode()}`;
}
