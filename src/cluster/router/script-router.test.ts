import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, createInvocation, type Invoker, RpcError, Url } from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import { createScriptRouter, type RouterLog } from "./index.js";

const SERVICE = "com.foo.BarService";
const A = new FakeInvoker({ address: "10.20.153.10:20880", service: SERVICE, params: { weight: 100 } });
const B = new FakeInvoker({ address: "10.20.153.11:20880", service: SERVICE, params: { weight: 200 } });
const C = new FakeInvoker({ address: "10.20.153.12:20880", service: SERVICE, params: { weight: 300 } });
const PROVIDERS: readonly Invoker[] = [A, B, C];
const CONSUMER = Url.parse(`consumer://10.20.3.3/${SERVICE}?interface=${SERVICE}&application=shop`);

/**
 * Tests that are not about the time limit give rules a generous one, so a busy machine (a GC pause,
 * a first compile) cannot turn a routing assertion into a timeout.
 */
function scriptUrl(rule: string, params = ""): Url {
  const limit = params.includes("script.timeout=") ? "" : "&script.timeout=5000";
  return Url.parse(
    `script://0.0.0.0/${SERVICE}?category=routers&type=javascript&rule=${encodeURIComponent(rule)}${params}${limit}`,
  );
}

function recordingLog(): RouterLog & { readonly messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (message) => messages.push(message) };
}

function call(method = "find", args: unknown[] = [], attachments: Record<string, unknown> = {}) {
  return createInvocation({ service: SERVICE, method, args, attachments });
}

describe("script router - routing", () => {
  it("script router - keeps the subset the rule returns", () => {
    const router = createScriptRouter(
      scriptUrl(`invokers.filter(function (i) { return i.url.host !== "10.20.153.11"; })`),
    );
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call()), [A, C]);
  });

  it("script router - runs a rule written for Java consumers unchanged", () => {
    const rule = `
      function route(invokers) {
        var result = new java.util.ArrayList(invokers.size());
        for (var i = 0; i < invokers.size(); i++) {
          if ("10.20.153.10".equals(invokers.get(i).getUrl().getHost())) {
            result.add(invokers.get(i));
          }
        }
        return result;
      }
      route(invokers);`;
    assert.deepEqual(createScriptRouter(scriptUrl(rule)).route(PROVIDERS, CONSUMER, call()), [A]);
  });

  it("script router - sees the invocation, its arguments and attachments, and the consumer URL", () => {
    const rule = `
      var heavy = invocation.getMethodName() === "report" && invocation.arguments[0] > 10;
      var gray = invocation.getAttachment("lane") === "gray" && context.getUrl().getParameter("application") === "shop";
      invokers.filter(function (i) {
        var w = Number(i.getUrl().getParameter("weight"));
        return gray ? w === 100 : heavy ? w >= 200 : true;
      });`;
    const router = createScriptRouter(scriptUrl(rule));
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("report", [50])), [B, C]);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("report", [5])), PROVIDERS);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("find", [], { lane: "gray" })), [A]);
  });

  it("script router - priority comes from the URL, default 0", () => {
    assert.equal(createScriptRouter(scriptUrl("invokers")).priority, 0);
    assert.equal(createScriptRouter(scriptUrl("invokers", "&priority=-5")).priority, -5);
  });
});

describe("script router - failures keep the original list", () => {
  it("script router - a rule that loops forever is stopped by the time limit", () => {
    const log = recordingLog();
    const router = createScriptRouter(scriptUrl("while (true) {}", "&script.timeout=30"), log);
    assert.equal(router.route(PROVIDERS, CONSUMER, call()), PROVIDERS);
    assert.equal(log.messages.length, 1);
    assert.match(
      log.messages[0] ?? "",
      /ran past its time limit of 30 ms while routing com\.foo\.BarService\.find; keeping all 3 providers/,
    );
  });

  it("script router - nothing can schedule work past the time limit", () => {
    const attempts = [
      "Promise.resolve().then(function () { for (;;) {} }); invokers",
      "new FinalizationRegistry(function () { for (;;) {} }); invokers",
      "WebAssembly.compile(new Uint8Array(8)); invokers",
      "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); invokers",
      "console.log(1); invokers",
    ];
    for (const rule of attempts) {
      const log = recordingLog();
      assert.equal(
        createScriptRouter(scriptUrl(rule), log).route(PROVIDERS, CONSUMER, call()),
        PROVIDERS,
        rule,
      );
      assert.match(log.messages[0] ?? "", /threw \w+ is not defined/, rule);
    }
    for (const rule of [
      "(async function () { for (;;) {} })(); invokers",
      "(function* () {})(); await 1; invokers",
      'import("node:fs").then(function () { for (;;) {} }); invokers',
    ]) {
      assert.throws(
        () => createScriptRouter(scriptUrl(rule)),
        /does not compile: "(async|await|import)" is not allowed: a rule must decide synchronously/,
        rule,
      );
    }
  });

  it("script router - the sandbox still works after a timeout", () => {
    const log = recordingLog();
    const rule = `if (invocation.methodName === "spin") { for (;;) {} } invokers.slice(0, 1)`;
    const router = createScriptRouter(scriptUrl(rule, "&script.timeout=30"), log);
    assert.equal(router.route(PROVIDERS, CONSUMER, call("spin")), PROVIDERS);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("find")), [A]);
    assert.equal(log.messages.length, 1);
  });

  it("script router - a rule that throws is reported with its message", () => {
    const log = recordingLog();
    const router = createScriptRouter(scriptUrl(`throw new Error("no route today")`), log);
    assert.equal(router.route(PROVIDERS, CONSUMER, call()), PROVIDERS);
    assert.match(
      log.messages[0] ?? "",
      /script router rule "throw new Error\(\\"no route today\\"\)" threw no route today/,
    );
  });

  it("script router - a thrown Proxy or getter is never evaluated outside the sandbox", () => {
    const log = recordingLog();
    const proxy = createScriptRouter(
      scriptUrl(`throw new Proxy({}, { get: function () { for (;;) {} } })`),
      log,
    );
    assert.equal(proxy.route(PROVIDERS, CONSUMER, call()), PROVIDERS);
    const getter = createScriptRouter(
      scriptUrl(
        `var e = {}; Object.defineProperty(e, "message", { get: function () { for (;;) {} } }); throw e;`,
        "&script.timeout=30",
      ),
      log,
    );
    assert.equal(getter.route(PROVIDERS, CONSUMER, call()), PROVIDERS);
    assert.match(log.messages[0] ?? "", /threw a Proxy/);
    assert.match(log.messages[1] ?? "", /threw a value that cannot be described/);
  });

  it("script router - process, require and code generation are not reachable", () => {
    const attempts = [
      `process.exit(3)`,
      `require("node:fs").writeFileSync("/tmp/escaped", "x")`,
      `this.constructor.constructor("return process")().exit(3)`,
      `invokers.constructor.constructor("return process")()`,
      `eval("1 + 1")`,
      `typeof setTimeout === "function" ? invokers : []`,
    ];
    for (const rule of attempts) {
      const log = recordingLog();
      const router = createScriptRouter(scriptUrl(rule), log);
      const routed = router.route(PROVIDERS, CONSUMER, call());
      if (rule.startsWith("typeof")) {
        assert.deepEqual(routed, [], "no timers in the sandbox");
        continue;
      }
      assert.equal(routed, PROVIDERS, rule);
      assert.match(
        log.messages[0] ?? "",
        /threw .*(is not defined|Code generation from strings disallowed)/,
        rule,
      );
    }
  });

  it("script router - results that are not a subset of the given invokers are rejected", () => {
    for (const [rule, reason] of [
      ["[{}]", /returned an element \(#0\) that is not one of the given invokers/],
      ["null", /returned null instead of a list of invokers/],
      ["42", /returned a number instead of a list of invokers/],
    ] as const) {
      const log = recordingLog();
      assert.equal(createScriptRouter(scriptUrl(rule), log).route(PROVIDERS, CONSUMER, call()), PROVIDERS);
      assert.match(log.messages[0] ?? "", reason);
    }
  });
});

describe("script router - bad rule URLs", () => {
  const invalid = (pattern: RegExp) => (error: unknown) =>
    error instanceof RpcError && error.code === Code.InvalidArgument && pattern.test(error.message);

  it("script router - a rule that does not compile fails when the router is created", () => {
    assert.throws(
      () => createScriptRouter(scriptUrl("invokers.filter(")),
      invalid(/does not compile: Unexpected end of input/),
    );
  });

  it("script router - an unsupported type is rejected", () => {
    const url = Url.parse(`script://0.0.0.0/${SERVICE}?type=groovy&rule=invokers`);
    assert.throws(
      () => createScriptRouter(url),
      invalid(/type="groovy", which is not supported \(use type=javascript\)/),
    );
  });

  it("script router - an empty rule is rejected", () => {
    assert.throws(
      () => createScriptRouter(Url.parse(`script://0.0.0.0/${SERVICE}?type=javascript`)),
      invalid(/has no rule/),
    );
  });

  it("script router - a bad script.timeout is rejected", () => {
    assert.throws(
      () => createScriptRouter(scriptUrl("invokers", "&script.timeout=0")),
      invalid(/script\.timeout=0/),
    );
  });
});
