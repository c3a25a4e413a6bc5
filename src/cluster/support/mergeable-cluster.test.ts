import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BizError,
  Code,
  createInvocation,
  ExtensionPoint,
  type Invocation,
  type JavaType,
  java,
  RpcError,
  Url,
} from "../../core/index.js";
import { createSeededRandom, FakeInvoker, unavailableError } from "../../testing/index.js";
import { BUILTIN_CLUSTERS, BUILTIN_LOAD_BALANCES } from "../builtin.js";
import type { Cluster, ClusterContext } from "../contracts.js";
import { StaticDirectory } from "../directory/static-directory.js";
import { type Merger, registerBuiltinMergers } from "../merger/index.js";
import { clusterNameForGroup, createMergeableCluster } from "./mergeable-cluster.js";

const SERVICE = "com.example.MenuService";

function context(): ClusterContext & { readonly warnings: string[] } {
  const warnings: string[] = [];
  const balancers = BUILTIN_LOAD_BALANCES;
  return {
    warnings,
    loadBalance: (name) => {
      const factory = balancers[name];
      if (factory === undefined) throw new RpcError(`no loadbalance ${name}`, Code.FailedPrecondition);
      return factory;
    },
    warn: (message, error) =>
      void warnings.push(`${message} <- ${error instanceof Error ? error.message : String(error)}`),
    random: createSeededRandom(1),
  };
}

function provider(group: string, port: number, value?: unknown): FakeInvoker {
  const fake = new FakeInvoker({ address: `127.0.0.1:${port}`, service: SERVICE, params: { group } });
  return value === undefined ? fake : fake.alwaysReturn(value);
}

function mergers(): ExtensionPoint<Merger> {
  const point = new ExtensionPoint<Merger>("merger");
  registerBuiltinMergers(point);
  point.register("sum", { merge: (results) => results.reduce((n: number, r) => n + Number(r), 0) });
  return point;
}

function clusters(): ExtensionPoint<Cluster> {
  const point = new ExtensionPoint<Cluster>("cluster", "failover");
  for (const [name, cluster] of Object.entries(BUILTIN_CLUSTERS)) point.register(name, cluster);
  return point;
}

function reference(params: Record<string, string>, invokers: FakeInvoker[], ctx = context()) {
  const url = new Url({
    protocol: "consumer",
    host: "127.0.0.1",
    port: 0,
    path: SERVICE,
    params: { interface: SERVICE, group: "a,b", ...params },
  });
  const directory = new StaticDirectory(url, invokers);
  const invoker = createMergeableCluster({ mergers: mergers(), clusters: clusters() })(directory, ctx);
  return { invoker, ctx, directory };
}

function call(returnType: JavaType | undefined = java.List(java.String), method = "items"): Invocation {
  return createInvocation({ service: SERVICE, method, returnType });
}

describe("mergeable cluster - merging", () => {
  it("mergeable cluster - calls each group once and merges lists by return type", async () => {
    const a = provider("a", 20880, ["a1", "a2"]);
    const b = provider("b", 20881, ["b1"]);
    const { invoker } = reference({ merger: "true" }, [a, b]);
    const result = await invoker.invoke(call());
    assert.deepEqual(result.value, ["a1", "a2", "b1"]);
    assert.deepEqual([a.calls, b.calls], [1, 1]);
  });

  it("mergeable cluster - several providers of one group share one call", async () => {
    const a1 = provider("a", 20880, ["a"]);
    const a2 = provider("a", 20881, ["a"]);
    const b = provider("b", 20882, ["b"]);
    const { invoker } = reference({ merger: "list" }, [a1, a2, b]);
    for (let i = 0; i < 4; i++) assert.deepEqual((await invoker.invoke(call())).value, ["a", "b"]);
    assert.equal(a1.calls + a2.calls, 4);
    assert.equal(b.calls, 4);
  });

  it("mergeable cluster - each group is its own failover cluster: a failed provider is retried in its group", async () => {
    const a1 = provider("a", 20880).alwaysFail(unavailableError("127.0.0.1:20880"));
    const a2 = provider("a", 20881, ["a"]);
    const b = provider("b", 20882, ["b"]);
    const merged = reference({ merger: "list", loadbalance: "roundrobin" }, [a1, a2, b]);
    for (let i = 0; i < 4; i++) assert.deepEqual((await merged.invoker.invoke(call())).value, ["a", "b"]);
    assert.equal(a2.calls, 4, "every call of group a ended on its live provider");
    assert.equal(b.calls, 4);
    assert.deepEqual(merged.ctx.warnings, []);

    const single = reference({ loadbalance: "roundrobin" }, [a1, a2, b]);
    for (let i = 0; i < 4; i++) assert.deepEqual((await single.invoker.invoke(call())).value, ["a"]);
    assert.equal(b.calls, 4, "without a merger the first group answers, after its own retry");
  });

  it("mergeable cluster - the method's merger setting wins, a custom merger by name", async () => {
    const a = provider("a", 20880, 2);
    const b = provider("b", 20881, 3);
    const { invoker } = reference({ merger: "list", "count.merger": "sum" }, [a, b]);
    assert.equal((await invoker.invoke(call(java.int, "count"))).value, 5);
  });

  it("mergeable cluster - merger=.method calls the first result's method with the others", async () => {
    const a = provider("a", 20880, ["x"]);
    const b = provider("b", 20881, ["y", "z"]);
    const { invoker } = reference({ merger: ".concat" }, [a, b]);
    assert.deepEqual((await invoker.invoke(call())).value, ["x", "y", "z"]);
  });

  it("mergeable cluster - maps merge with the later group winning", async () => {
    const a = provider(
      "a",
      20880,
      new Map([
        ["k", 1],
        ["only-a", 1],
      ]),
    );
    const b = provider("b", 20881, new Map([["k", 2]]));
    const { invoker } = reference({ merger: "true" }, [a, b]);
    const result = await invoker.invoke(call(java.Map(java.String, java.int)));
    assert.deepEqual(
      result.value,
      new Map([
        ["k", 2],
        ["only-a", 1],
      ]),
    );
  });

  it("mergeable cluster - a void method gives undefined after calling every group", async () => {
    const a = provider("a", 20880, null);
    const b = provider("b", 20881, null);
    const { invoker } = reference({ merger: "true" }, [a, b]);
    assert.equal((await invoker.invoke(call(java.void))).value, undefined);
    assert.deepEqual([a.calls, b.calls], [1, 1]);
  });
});

describe("mergeable cluster - failures", () => {
  it("mergeable cluster - a failing group is warned about and left out", async () => {
    const a = provider("a", 20880).alwaysFail(unavailableError("127.0.0.1:20880"));
    const b = provider("b", 20881, ["b1"]);
    const c = provider("c", 20882, ["c1"]);
    const { invoker, ctx } = reference({ group: "*", merger: "true" }, [a, b, c]);
    assert.deepEqual((await invoker.invoke(call())).value, ["b1", "c1"]);
    assert.deepEqual([a.calls, b.calls, c.calls], [3, 1, 1], "group a's own failover tried 3 times");
    assert.equal(ctx.warnings.length, 1);
    assert.match(
      ctx.warnings[0] ?? "",
      /^mergeable: group \[ a \] of com\.example\.MenuService method items failed and was left out of the merged result <- .*connection refused/,
    );
  });

  it("mergeable cluster - one answering group gives its value unmerged; a business error is skipped too", async () => {
    const a = provider("a", 20880).throwBizError("menu closed");
    const b = provider("b", 20881, ["b1"]);
    const { invoker, ctx } = reference({ merger: "true" }, [a, b]);
    assert.deepEqual((await invoker.invoke(call())).value, ["b1"]);
    assert.match(ctx.warnings[0] ?? "", /group \[ a \] .* threw and was left out .*menu closed/);
  });

  it("mergeable cluster - when every group fails, the first group's error is thrown as is", async () => {
    const bizError = new BizError("menu closed", { javaClass: "com.example.ClosedException" });
    const a = provider("a", 20880).alwaysFail(bizError);
    const b = provider("b", 20881).alwaysFail(unavailableError("127.0.0.1:20881"));
    const { invoker, ctx } = reference({ merger: "true" }, [a, b]);
    await assert.rejects(invoker.invoke(call()), (e: unknown) => e === bizError);
    assert.equal(ctx.warnings.length, 1);
    assert.match(ctx.warnings[0] ?? "", /group \[ b \]/);
  });

  it("mergeable cluster - a merger that cannot merge the values is an error naming the method", async () => {
    const a = provider("a", 20880, ["x"]);
    const b = provider("b", 20881, "not a list");
    const { invoker } = reference({ merger: "list" }, [a, b]);
    await assert.rejects(
      invoker.invoke(call()),
      /cannot merge the results of .*MenuService method items with merger=list: cannot merge a string as a list/,
    );
  });

  it("mergeable cluster - an unknown merger name lists the registered ones", async () => {
    const { invoker } = reference({ merger: "concatAll" }, [
      provider("a", 20880, [1]),
      provider("b", 20881, [2]),
    ]);
    await assert.rejects(
      invoker.invoke(call()),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.FailedPrecondition &&
        /merger=concatAll .* names no merger \(registered: list, set, map/.test(e.message),
    );
  });

  it("mergeable cluster - no provider at all is the no-provider error", async () => {
    const { invoker } = reference({ merger: "true" }, []);
    await assert.rejects(
      invoker.invoke(call()),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.Unavailable &&
        /no provider available for a,b\/com\.example\.MenuService method items/.test(e.message),
    );
  });
});

describe("mergeable cluster - without a merger only one group is called", () => {
  it("mergeable cluster - the first available group answers alone", async () => {
    const a = provider("a", 20880, ["a"]);
    const b = provider("b", 20881, ["b"]);
    const { invoker } = reference({}, [a, b]);
    assert.deepEqual((await invoker.invoke(call())).value, ["a"]);
    assert.deepEqual([a.calls, b.calls], [1, 0]);
    a.setAvailable(false);
    assert.deepEqual((await invoker.invoke(call())).value, ["b"]);
    assert.deepEqual([a.calls, b.calls], [1, 1]);
  });

  it("mergeable cluster - a group left without providers passes to the next; other errors are thrown", async () => {
    const a = provider("a", 20880);
    const b = provider("b", 20881, ["b"]);
    const { invoker, directory } = reference({ merger: "false" }, [a, b]);
    // a's only provider fails and leaves the directory: a's cluster finds no provider on retry.
    a.invoke = async () => {
      directory.setInvokers([b]);
      throw unavailableError(a.address);
    };
    assert.deepEqual((await invoker.invoke(call())).value, ["b"]);
    const c = provider("c", 20882).alwaysFail(new BizError("menu closed"));
    directory.setInvokers([c, b]);
    await assert.rejects(invoker.invoke(call()), /menu closed/);
    assert.deepEqual([c.calls, b.calls], [1, 1]);
  });

  it("mergeable cluster - with no group available the first is called anyway", async () => {
    const a = provider("a", 20880, ["a"]).setAvailable(false);
    const b = provider("b", 20881, ["b"]).setAvailable(false);
    const { invoker } = reference({}, [a, b]);
    assert.deepEqual((await invoker.invoke(call())).value, ["a"]);
  });
});

describe("cluster name for a group", () => {
  it("cluster name - * and group lists select mergeable, else the configured cluster", () => {
    const rows: Array<[string | undefined, string | undefined, string]> = [
      ["*", "failfast", "mergeable"],
      ["a,b", undefined, "mergeable"],
      [" a , b ", "failover", "mergeable"],
      ["a", "failfast", "failfast"],
      ["a,", "forking", "forking"],
      [undefined, undefined, "failover"],
      ["", "", "failover"],
    ];
    for (const [group, configured, expected] of rows)
      assert.equal(clusterNameForGroup(group, configured), expected, `${group}`);
  });
});
