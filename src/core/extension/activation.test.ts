import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import type { Filter } from "../rpc/filter.js";
import { Url } from "../url/url.js";
import { ExtensionPoint } from "./extension-point.js";
import { activateFilters, type FilterExtension } from "./filter-extension.js";

const pass: Filter = (next) => next;

function point(): ExtensionPoint<FilterExtension> {
  return new ExtensionPoint<FilterExtension>("filter")
    .register("echo", { filter: pass, activate: { side: "provider", order: -110000 } })
    .register("context", { filter: pass, activate: { side: "provider", order: -10000 } })
    .register("exception", { filter: pass, activate: { side: "provider" } })
    .register("consumercontext", { filter: pass, activate: { side: "consumer", order: -10000 } })
    .register("accesslog", { filter: pass, activate: { side: "provider", keys: ["accesslog"] } })
    .register("cache", { filter: pass, activate: { side: "both", order: 5, keys: ["cache:lru"] } })
    .register("mine", { filter: pass })
    .register("other", { filter: pass });
}

const names = (url: string, side: "consumer" | "provider" = "provider"): string[] =>
  activateFilters(point(), Url.parse(url), side).map((a) => a.name);

describe("activation", () => {
  it("activation - defaults of the side sorted by order, lower first", () => {
    assert.deepEqual(names("dubbo://h:1/S"), ["echo", "context", "exception"]);
    assert.deepEqual(names("dubbo://h:1/S", "consumer"), ["consumercontext"]);
  });

  it("activation - named filters go after the defaults", () => {
    assert.deepEqual(names("dubbo://h:1/S?service.filter=mine,other"), [
      "echo",
      "context",
      "exception",
      "mine",
      "other",
    ]);
  });

  it("activation - names before the default placeholder go before the defaults", () => {
    assert.deepEqual(names("dubbo://h:1/S?service.filter=mine,default,other"), [
      "mine",
      "echo",
      "context",
      "exception",
      "other",
    ]);
  });

  it("activation - -name removes one default, -default removes them all", () => {
    assert.deepEqual(names("dubbo://h:1/S?service.filter=-exception,mine"), ["echo", "context", "mine"]);
    assert.deepEqual(names("dubbo://h:1/S?service.filter=-default,mine"), ["mine"]);
    assert.deepEqual(names("dubbo://h:1/S?service.filter=mine,-mine"), ["echo", "context", "exception"]);
  });

  it("activation - a default named explicitly takes its listed position", () => {
    assert.deepEqual(names("dubbo://h:1/S?service.filter=echo"), ["context", "exception", "echo"]);
  });

  it("activation - URL keys switch key-activated filters on, with Java's empty-like values off", () => {
    assert.deepEqual(names("dubbo://h:1/S?accesslog=true"), ["echo", "context", "exception", "accesslog"]);
    assert.deepEqual(names("dubbo://h:1/S?sayHello.accesslog=/tmp/log"), [
      "echo",
      "context",
      "exception",
      "accesslog",
    ]);
    assert.deepEqual(names("dubbo://h:1/S?accesslog=false"), ["echo", "context", "exception"]);
    assert.deepEqual(names("dubbo://h:1/S?cache=lru", "consumer"), ["consumercontext", "cache"]);
    assert.deepEqual(names("dubbo://h:1/S?cache=jcache", "consumer"), ["consumercontext"]);
  });

  it("activation - the consumer list is reference.filter, the provider list service.filter", () => {
    assert.deepEqual(names("dubbo://h:1/S?reference.filter=mine", "consumer"), ["consumercontext", "mine"]);
    assert.deepEqual(names("dubbo://h:1/S?reference.filter=mine"), ["echo", "context", "exception"]);
  });

  it("activation - an unknown name fails listing what is registered", () => {
    for (const list of ["mystery", "-mystery", "mine,,-"]) {
      assert.throws(
        () => names(`dubbo://h:1/com.foo.S?service.filter=${list}`),
        (e: unknown) =>
          e instanceof RpcError &&
          e.code === Code.InvalidArgument &&
          e.message.includes("service.filter of com.foo.S") &&
          e.message.includes("registered: echo, context, exception"),
      );
    }
  });
});

describe("extension point wrappers", () => {
  it("wrappers - every extension is wrapped once, lower order outermost", () => {
    const calls: string[] = [];
    const p = new ExtensionPoint<() => string>("greeter", "a")
      .register("a", () => "a")
      .register("b", () => "b");
    p.addWrapper(
      (inner, name) => {
        calls.push(`inner:${name}`);
        return () => `[${inner()}]`;
      },
      { order: 10 },
    );
    p.addWrapper((inner, name) => {
      calls.push(`outer:${name}`);
      return () => `<${inner()}>`;
    });
    assert.equal(p.get()(), "<[a]>");
    assert.equal(p.get("a")(), "<[a]>");
    assert.equal(p.get("b")(), "<[b]>");
    assert.equal(p.unwrapped("b")(), "b");
    assert.deepEqual(calls, ["inner:a", "outer:a", "inner:b", "outer:b"]);
  });

  it("wrappers - a re-registered extension is wrapped again, and forks keep the wrappers", () => {
    const p = new ExtensionPoint<() => string>("greeter").register("a", () => "a");
    p.addWrapper((inner) => () => `<${inner()}>`);
    assert.equal(p.get("a")(), "<a>");
    p.register("a", () => "A", { replace: true });
    assert.equal(p.get("a")(), "<A>");
    assert.equal(p.fork().get("a")(), "<A>");
  });
});
