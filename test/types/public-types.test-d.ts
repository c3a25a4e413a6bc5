// Type tests: tsc (`npm test`'s type-check step) compiles this file; it never runs. Each
// `@ts-expect-error` line must fail to compile, each other line must compile.
import {
  createDubbo,
  type DubboConfigOptions,
  defineService,
  type JavaValue,
  java,
  type ServiceImplementation,
  type ServiceStub,
} from "dubbo-ts";

/** True when A and B are the same type (each assignable to the other, no `any` slipping through). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Each assignable to the other (for flattened object types, whose `& {}` strict equality sees). */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function expectType<T extends true>(): T | undefined {
  return undefined;
}

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

// ---- contracts: named parameters, flattened types, long by its declared TypeScript type ----

const UserType = java.Class("com.foo.User", {
  id: java.long,
  name: java.String,
  tags: java.List(java.String),
});
type User = JavaValue<typeof UserType>;

const UserService = defineService("com.foo.UserService", {
  find: { args: (id = java.long) => [id], returns: UserType },
  rename: { args: (id = java.longBig, name = java.String) => [id, name], returns: java.boolean },
  touch: { args: (id = java.long) => [id] as const, returns: java.void },
  count: { args: [], returns: java.long },
  countAll: { args: [java.String], returns: java.LongBig },
});
type Methods = (typeof UserService)["methods"];

// The stub and the implementation take the contract's parameters, named when it names them.
expectType<Equal<Parameters<ServiceStub<Methods>["find"]>, [id: number]>>();
expectType<Equal<Parameters<ServiceStub<Methods>["rename"]>, [id: bigint, name: string]>>();
expectType<Equal<Parameters<ServiceImplementation<Methods>["rename"]>, [id: bigint, name: string]>>();
expectType<Equal<Parameters<ServiceStub<Methods>["countAll"]>, [string]>>();
// Java's order is the parameters' order, also at run time.
expectType<Equal<Methods["rename"]["args"], readonly [typeof java.longBig, typeof java.String]>>();

// A class value is its fields plus the optional, read-only Java class name the decoder leaves on it.
expectType<Mutual<User, { id: number; name: string; tags: string[]; readonly $class?: "com.foo.User" }>>();
export const plainUser: User = { id: 1, name: "a", tags: [] };
// @ts-expect-error: $class names the class the contract declared
export const otherClass: User = { id: 1, name: "a", tags: [], $class: "com.foo.Other" };

export async function calls(stub: ServiceStub<Methods>): Promise<void> {
  const n: number = await stub.count();
  const big: bigint = await stub.countAll("x");
  const user = await stub.find(42);
  const className: "com.foo.User" | undefined = user.$class;
  // @ts-expect-error: $class is read-only
  user.$class = "com.foo.User";
  // @ts-expect-error: java.long is a number, not a bigint
  await stub.find(42n);
  // @ts-expect-error: java.longBig is a bigint
  await stub.rename(1, "b");
  void [n, big, className];
}

export const swapped = defineService("com.foo.Swapped", {
  // @ts-expect-error: the Java types must come back in the parameters' order
  f: { args: (name = java.String, times = java.int) => [times, name], returns: java.void },
});

export const implementation: ServiceImplementation<Methods> = {
  find: (id) => ({ id, name: "n", tags: [] }),
  rename: async (id, name) => id > 0n && name !== "",
  count: () => 3,
  countAll: () => 3n,
  touch: () => {},
};
