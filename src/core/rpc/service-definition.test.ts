import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { java } from "../java/java-type.js";
import { defineService } from "./service-definition.js";

describe("defineService", () => {
  it("keeps the interface name and each method's Java types", () => {
    const Demo = defineService("org.apache.dubbo.demo.DemoService", {
      sayHello: { args: [java.String], returns: java.String },
      add: { args: [java.int, java.long], returns: java.long },
    });
    assert.equal(Demo.interfaceName, "org.apache.dubbo.demo.DemoService");
    assert.deepEqual(
      Demo.methods.add.args.map((t) => t.descriptor),
      ["I", "J"],
    );
    assert.equal(Demo.methods.sayHello.returns.name, "java.lang.String");
  });

  it("named parameters: their defaults are the Java types, in the parameters' order", () => {
    const Demo = defineService("org.apache.dubbo.demo.DemoService", {
      greet: { args: (name = java.String, times = java.int) => [name, times], returns: java.String },
      ping: { args: () => [], returns: java.void },
    });
    assert.deepEqual(
      Demo.methods.greet.args.map((t) => t.descriptor),
      ["Ljava/lang/String;", "I"],
    );
    assert.deepEqual(Demo.methods.ping.args, []);
    assert.ok(Object.isFrozen(Demo.methods.greet.args));
    assert.throws(
      () => defineService("a.B", { f: { args: (() => "x") as never, returns: java.void } }),
      /method "f" needs \{ args: \[\.\.\.Java types\] or \(name = java\.String, \.\.\.\) => \[name, \.\.\.\]/,
    );
  });

  it("rejects bad interface names, reserved or invalid method names and missing types", () => {
    assert.throws(() => defineService("not a name", {}), /is not a Java interface name/);
    assert.throws(() => defineService("a.B", { $echo: { args: [], returns: java.void } }), /reserved/);
    assert.throws(
      () => defineService("a.B", { "say-hello": { args: [], returns: java.void } }),
      /not a valid method name/,
    );
    assert.throws(
      () => defineService("a.B", { f: { args: [{}] as never, returns: java.void } }),
      /method "f": argument 0 is not a Java type/,
    );
    assert.throws(() => defineService("a.B", { f: {} as never }), /needs \{ args/);
  });
});
