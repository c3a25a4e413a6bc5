// Type tests: tsc (`npm test`'s type-check step) compiles this file; it never runs. Each
// `@ts-expect-error` line must fail to compile, each other line must compile.
import { createDubbo, type DubboConfigOptions } from "dubbo-ts";

// A name an application registers itself, declared as users do.
declare module "dubbo-ts" {
  interface CustomExtensions {
    "typing-test-balancer": "loadbalance";
    "typing-test-both": "cluster" | "loadbalance";
  }
}

// ---- extension names: built-ins and declared names compile, misspellings do not ----

export const builtins: DubboConfigOptions = {
  application: { name: "typing" },
  consumer: { cluster: "failfast", loadbalance: "roundrobin", filters: ["-accesslog", "default", "tps"] },
  provider: { cluster: "failsafe", serialization: "hessian2" },
  protocol: { name: "dubbo", threadpool: "cached", dispatcher: "direct" },
  registry: { address: "127.0.0.1:2181", protocol: "zookeeper" },
};

export const custom: DubboConfigOptions = {
  consumer: { cluster: "typing-test-both", loadbalance: "typing-test-balancer" },
  references: { demo: { interface: "com.foo.Demo", loadbalance: "typing-test-both" } },
};

// @ts-expect-error: misspelt cluster
export const misspeltCluster: DubboConfigOptions = { consumer: { cluster: "failfastt" } };
// @ts-expect-error: misspelt balancer
export const misspeltBalancer: DubboConfigOptions = { consumer: { loadbalance: "randm" } };
// @ts-expect-error: a loadbalance name is no cluster name
export const wrongPoint: DubboConfigOptions = { consumer: { cluster: "typing-test-balancer" } };
// @ts-expect-error: misspelt filter removal
export const misspeltFilter: DubboConfigOptions = { provider: { filters: ["-accesslgo"] } };
export const misspeltMethod: DubboConfigOptions = {
  // @ts-expect-error: misspelt method-level balancer
  references: { d: { methods: { m: { loadbalance: "randm" } } } },
};

export async function referOptions(): Promise<void> {
  const app = await createDubbo({ application: { name: "typing" } });
  const { defineService, java } = await import("dubbo-ts");
  const Demo = defineService("com.foo.Demo", { ping: { args: [], returns: java.void } });
  await app.refer(Demo, { cluster: "failback", loadbalance: "typing-test-balancer" });
  // @ts-expect-error: misspelt cluster in refer options
  await app.refer(Demo, { cluster: "failbak" });
}
