import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  Code,
  createInvocation,
  ExtensionPoint,
  type Invocation,
  type Invoker,
  RpcError,
  Url,
} from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import {
  createBuiltinRouters,
  createRouterChain,
  type RouterLog,
  registerBuiltinRouters,
  routersFromRuleUrls,
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

describe("router chain", () => {
  it("router chain - runs routers by priority, equal priorities in the order given", () => {
    const order: string[] = [];
    const chain = createRouterChain({
      builtin: [recordingRouter("tag", 100, order), recordingRouter("mock", -100, order)],
      rules: [recordingRouter("rule-a", 0, order), recordingRouter("rule-b", 0, order)],
    });
    chain.route(PROVIDERS, CONSUMER, INV);
    assert.deepEqual(order, ["mock", "rule-a", "rule-b", "tag"]);
  });

  it("router chain - routeWithReasons names the router that removed each provider", () => {
    const routers = point();
    const chain = createRouterChain({
      builtin: createBuiltinRouters(routers, CONSUMER),
      rules: routersFromRuleUrls(
        routers,
        [Url.parse(`condition://0.0.0.0/${SERVICE}?rule=${encoded("=> host != 10.0.0.3")}`)],
        recordingLog(),
      ),
    });
    const routed = chain.routeWithReasons(PROVIDERS, CONSUMER, INV);
    assert.deepEqual(routed.invokers, [A]);
    assert.deepEqual(
      [...routed.excludedBy],
      [
        ["10.0.0.4:20880", "mock"],
        ["10.0.0.3:20880", "condition(=> host != 10.0.0.3)"],
        ["10.0.0.2:20880", "tag"],
      ],
    );
    assert.deepEqual(chain.route(PROVIDERS, CONSUMER, INV), [A]);
  });

  it("router chain - a router that throws is skipped for that call and reported", () => {
    const log = recordingLog();
    const broken: Router = {
      name: "broken",
      priority: 0,
      url: undefined,
      route() {
        throw new Error("bug in router");
      },
    };
    const chain = createRouterChain({ rules: [broken], log });
    assert.equal(chain.route(PROVIDERS, CONSUMER, INV), PROVIDERS);
    assert.match(log.messages[0] ?? "", /router broken failed for com\.foo\.BarService\.find.*bug in router/);
  });

  it("router chain - withRuleRouters keeps the built-in routers and replaces the rules", () => {
    const routers = point();
    const base = createRouterChain({ builtin: createBuiltinRouters(routers, CONSUMER) });
    const ruleUrl = Url.parse(`condition://0.0.0.0/${SERVICE}?rule=${encoded("=> host = 10.0.0.3")}`);
    const withRule = base.withRuleRouters(routersFromRuleUrls(routers, [ruleUrl], recordingLog()));
    assert.deepEqual(withRule.route(PROVIDERS, CONSUMER, INV), [C]);
    assert.deepEqual(base.route(PROVIDERS, CONSUMER, INV), [A, C]);
    assert.deepEqual(withRule.withRuleRouters([]).route(PROVIDERS, CONSUMER, INV), [A, C]);
  });

  it("router chain - notify reaches routers that want the provider list", () => {
    const seen: number[] = [];
    const router: Router = {
      name: "listener",
      priority: 0,
      url: undefined,
      route: (invokers) => invokers,
      notify: (invokers) => seen.push(invokers.length),
    };
    createRouterChain({ rules: [router] }).notify(PROVIDERS);
    assert.deepEqual(seen, [4]);
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
    assert.deepEqual(createRouterChain({ rules: routers }).route([A, B, C], CONSUMER, INV), [A]);
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
