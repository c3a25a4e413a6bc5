import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  Code,
  createInvocation,
  ExtensionPoint,
  type Invocation,
  type Invoker,
  type Logger,
  RpcError,
  silentLogger,
  Url,
} from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import { BUILTIN_CLUSTERS, BUILTIN_LOAD_BALANCES, createClusterInvoker } from "../builtin.js";
import type { Cluster, Router, RouterFactory } from "../contracts.js";
import { StaticDirectory } from "../directory/static-directory.js";
import {
  createBuiltinRouters,
  type RouterLog,
  registerBuiltinRouters,
  routersFromRuleUrls,
  routeThrough,
  sortRouters,
} from "./index.js";

const SERVICE = "com.foo.BarService";
const A = new FakeInvoker({ address: "10.0.0.1:20880", service: SERVICE });
const B = new FakeInvoker({ address: "10.0.0.2:20880", service: SERVICE, params: { "dubbo.tag": "gray" } });
const C = new FakeInvoker({ address: "10.0.0.3:20880", service: SERVICE });
const M = new FakeInvoker({ address: "10.0.0.4:20880", service: SERVICE, protocol: "mock" });
const PROVIDERS: readonly Invoker[] = [A, B, C, M];
const CONSUMER = Url.parse(`consumer://10.0.0.9/${SERVICE}?interface=${SERVICE}&application=shop`);
const INV = createInvocation({ service: SERVICE, method: "find" });

function encoded(rule: string): string {
  return encodeURIComponent(rule);
}

function recordingLog(): RouterLog & { readonly messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (message, error) => messages.push(`${message}: ${String(error)}`) };
}

function point(log?: RouterLog): ExtensionPoint<RouterFactory> {
  const routers = new ExtensionPoint<RouterFactory>("router");
  registerBuiltinRouters(routers, log);
  return routers;
}

function recordingRouter(name: string, priority: number, order: string[]): Router {
  return {
    name,
    priority,
    url: undefined,
    route(invokers: readonly Invoker[], _url: Url, _inv: Invocation) {
      order.push(name);
      return invokers;
    },
  };
}

/** A logger that keeps what was reported at error level. */
function errorLog(): Logger & { readonly errors: string[] } {
  const errors: string[] = [];
  return {
    ...silentLogger,
    errors,
    error: (message, error) => void errors.push(`${message}: ${String(error)}`),
  };
}

const brokenRouter: Router = {
  name: "broken",
  priority: 0,
  url: undefined,
  route() {
    throw new Error("bug in router");
  },
};

describe("router chain", () => {
  it("router chain - runs routers by priority, equal priorities in the order given", () => {
    const order: string[] = [];
    const routers = sortRouters([
      recordingRouter("tag", 100, order),
      recordingRouter("mock", -100, order),
      recordingRouter("rule-a", 0, order),
      recordingRouter("rule-b", 0, order),
    ]);
    routeThrough(routers, PROVIDERS, CONSUMER, INV);
    assert.deepEqual(order, ["mock", "rule-a", "rule-b", "tag"]);
  });

  it("router chain - an empty list ends the chain (Java's router.should-fail-fast default)", () => {
    const order: string[] = [];
    const none: Router = { ...recordingRouter("none", 0, order), route: () => [] };
    const routed = routeThrough([none, recordingRouter("after", 1, order)], PROVIDERS, CONSUMER, INV);
    assert.deepEqual(routed, []);
    assert.equal(routeThrough([], PROVIDERS, CONSUMER, INV), PROVIDERS, "no wrapper around what is left");
    assert.deepEqual(order, []);
  });

  it("router chain - the directory explains which router removed each provider", () => {
    const routers = point();
    const directory = new StaticDirectory(CONSUMER, PROVIDERS, [
      ...createBuiltinRouters(routers, CONSUMER),
      ...routersFromRuleUrls(
        routers,
        [Url.parse(`condition://0.0.0.0/${SERVICE}?rule=${encoded("=> host != 10.0.0.3")}`)],
        recordingLog(),
      ),
    ]);
    assert.deepEqual(directory.list(INV), [A]);
    assert.deepEqual(
      [...directory.explain(INV)],
      [
        ["10.0.0.4:20880", { kind: "router", router: "mock" }],
        ["10.0.0.3:20880", { kind: "router", router: "condition(=> host != 10.0.0.3)" }],
        ["10.0.0.2:20880", { kind: "router", router: "tag" }],
      ],
    );
  });

  it("router chain - a router that throws leaves the call no provider, logged as an error (Java's directories)", async () => {
    const log = errorLog();
    const directory = new StaticDirectory(CONSUMER, PROVIDERS, [brokenRouter], log);
    assert.deepEqual(directory.list(INV), []);
    assert.match(
      log.errors[0] ?? "",
      /router broken failed for com\.foo\.BarService\.find, so this call has no provider.*bug in router/,
    );
    const invoker = createClusterInvoker(
      directory,
      { loadBalance: () => BUILTIN_LOAD_BALANCES.random!, warn: () => {}, random: Math.random },
      new ExtensionPoint<Cluster>("cluster", "failover", Object.entries(BUILTIN_CLUSTERS)),
    );
    await assert.rejects(invoker.invoke(INV), (error: unknown) => {
      assert.ok(error instanceof RpcError && error.code === Code.Unavailable, String(error));
      assert.match(error.message, /not routed: router "broken" failed \(bug in router\)/);
      return true;
    });
  });

  it("router chain - the directory tells routers that precompute about the provider list", () => {
    const seen: number[] = [];
    const router: Router = {
      name: "listener",
      priority: 0,
      url: undefined,
      route: (invokers) => invokers,
      notify: (invokers) => seen.push(invokers.length),
    };
    const directory = new StaticDirectory(CONSUMER, PROVIDERS, [router]);
    directory.setInvokers([A]);
    assert.deepEqual(seen, [4, 1]);
  });
});

describe("router rule URLs", () => {
  it("router rules - condition://, route://?router=condition and script:// become routers", () => {
    const log = recordingLog();
    const urls = [
      Url.parse(
        `condition://0.0.0.0/${SERVICE}?category=routers&dynamic=false&priority=2&rule=${encoded("=> host = 10.0.0.1,10.0.0.2")}`,
      ),
      Url.parse(
        `route://0.0.0.0/${SERVICE}?category=routers&router=condition&priority=1&rule=${encoded("=> host != 10.0.0.2")}`,
      ),
      Url.parse(
        `script://0.0.0.0/${SERVICE}?category=routers&type=javascript&priority=3&rule=${encoded("invokers.slice(0, 1)")}`,
      ),
      Url.parse(`empty://0.0.0.0/${SERVICE}?category=routers`),
    ];
    const routers = routersFromRuleUrls(point(log), urls, log);
    assert.deepEqual(
      routers.map((r) => [r.name, r.priority]),
      [
        ["condition(=> host = 10.0.0.1,10.0.0.2)", 2],
        ["condition(=> host != 10.0.0.2)", 1],
        ['script("invokers.slice(0, 1)")', 3],
      ],
    );
    assert.deepEqual(routeThrough(sortRouters(routers), [A, B, C], CONSUMER, INV), [A]);
    assert.deepEqual(log.messages, []);
  });

  it("router rules - a malformed or unknown rule is reported and left out, duplicates count once", () => {
    const log = recordingLog();
    const good = Url.parse(`condition://0.0.0.0/${SERVICE}?rule=${encoded("=> host = 10.0.0.1")}`);
    const urls = [
      good,
      good,
      Url.parse(`condition://0.0.0.0/${SERVICE}?rule=${encoded("host = 1 => host == 2")}`),
      Url.parse(`route://0.0.0.0/${SERVICE}?rule=x`),
    ];
    const routers = routersFromRuleUrls(point(log), urls, log);
    assert.equal(routers.length, 1);
    assert.equal(log.messages.length, 2);
    assert.match(
      log.messages[0] ?? "",
      /was ignored: RpcError: \[invalid_argument\] condition rule "host = 1 => host == 2" is malformed/,
    );
    assert.match(
      log.messages[1] ?? "",
      /no router named "route" \(registered: condition, tag, mock, script, condition-router, script-router\)/,
    );
  });

  it("router rules - registerBuiltinRouters refuses a second registration", () => {
    const routers = point();
    assert.deepEqual(routers.names(), [
      "condition",
      "tag",
      "mock",
      "script",
      "condition-router",
      "script-router",
    ]);
    assert.throws(
      () => registerBuiltinRouters(routers),
      (error: unknown) => error instanceof RpcError && error.code === Code.AlreadyExists,
    );
  });
});
