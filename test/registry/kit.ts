// Shared pieces of the registry integration tests: a demo contract, provider and consumer URLs
// shaped as the config layer builds them, a consumer-side cluster, and a provider in a child
// process (so a test can kill it for real).

import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  type Cluster,
  type ClusterContext,
  createClusterInvoker,
  type LoadBalanceFactory,
  type RouterFactory,
  registerBuiltinClusters,
  registerBuiltinRouters,
} from "../../src/cluster/index.js";
import {
  consoleLogger,
  defineService,
  ExtensionPoint,
  java,
  silentLogger,
  Url,
} from "../../src/core/index.js";
import type { ClusterBuilder } from "../../src/registry/protocol/index.js";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";

export const IFACE = "org.apache.dubbo.demo.RegistryDemoService";
export const DemoService = defineService(IFACE, {
  whoAmI: { args: [java.String], returns: java.String },
});

export const quietLogger = process.env.REGISTRY_TEST_LOG ? consoleLogger : silentLogger;

/** A provider URL in the shape `toServiceUrl` gives (port 0: the protocol binds a free one). */
export function providerUrl(application: string, extra: Record<string, string> = {}): Url {
  return new Url({
    protocol: "dubbo",
    host: "127.0.0.1",
    port: 0,
    path: IFACE,
    params: {
      anyhost: "false",
      application,
      deprecated: "false",
      dubbo: "2.0.2",
      dynamic: "true",
      generic: "false",
      interface: IFACE,
      methods: "whoAmI",
      pid: String(process.pid),
      release: "2.7.23",
      side: "provider",
      timestamp: String(Date.now()),
      ...extra,
    },
  });
}

/** A consumer URL in the shape `toReferenceUrl` gives. */
export function consumerUrl(extra: Record<string, string> = {}): Url {
  return new Url({
    protocol: "consumer",
    host: "127.0.0.1",
    port: 0,
    path: IFACE,
    params: {
      application: "registry-test-consumer",
      dubbo: "2.0.2",
      interface: IFACE,
      methods: "whoAmI",
      pid: String(process.pid),
      release: "2.7.23",
      side: "consumer",
      timeout: "3000",
      timestamp: String(Date.now()),
      ...extra,
    },
  });
}

/** The consumer-side cluster and routers an application would pass to referWithRegistry. */
export function consumerExtensions(): {
  cluster: ClusterBuilder;
  routerFactories: ExtensionPoint<RouterFactory>;
} {
  const clusters = new ExtensionPoint<Cluster>("Cluster", "failover");
  const loadBalance = new ExtensionPoint<LoadBalanceFactory>("LoadBalance", "random");
  registerBuiltinClusters({ cluster: clusters, loadBalance });
  const routerFactories = new ExtensionPoint<RouterFactory>("RouterFactory");
  registerBuiltinRouters(routerFactories);
  const context: ClusterContext = {
    loadBalance: (name) => loadBalance.get(name),
    warn() {},
    random: Math.random,
  };
  return { cluster: (directory) => createClusterInvoker(directory, context, clusters), routerFactories };
}

export { waitFor } from "../../src/testing/index.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/registry-provider.ts", import.meta.url));

export interface ProviderProcess {
  readonly port: number;
  readonly address: string;
  kill(): Promise<void>;
}

/** Starts a provider in a child process that registers in `registryUrl`; resolves at READY <port>. */
export async function spawnRegistryProvider(registryUrl: string, name: string): Promise<ProviderProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", FIXTURE, registryUrl, name], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`provider ${name} did not start in 30 s: ${err}`)),
      30_000,
    );
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`provider ${name} exited with ${code} before READY: ${err}`));
    });
  }).catch(async (error: unknown) => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, "SIGKILL");
    throw error;
  });
  return {
    port,
    address: `127.0.0.1:${port}`,
    async kill() {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}

/** The provider (or consumer) URLs registered in ZooKeeper for `interfaceName`, read by a separate client, as a Java consumer would. */
export async function zookeeperProviders(
  connectString: string,
  interfaceName: string,
  category: "providers" | "consumers" = "providers",
): Promise<Url[]> {
  const inspector = new ZkClient({ connectString, sessionTimeoutMs: 10_000, operationTimeoutMs: 3000 });
  try {
    await inspector.connect(10_000);
    const children = (await inspector.getChildren(`/dubbo/${interfaceName}/${category}`)) ?? [];
    return children.map((child) => Url.parse(decodeURIComponent(child)));
  } finally {
    inspector.close();
  }
}
