// A Java client of our own (Caucho Hessian, raw Dubbo 2 frames written as Java's DubboCodec writes
// them) calls our dubbo provider over TCP; we assert on what Java decoded from our responses.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FAIL_CLASS, type FixtureProvider, startFixtureProvider } from "../dubbo-js/fixture-provider.js";
import { compileJavaDubboHarness, type JavaClientLine, runJavaClient } from "./java-dubbo-harness.js";

describe("java-dubbo interop: Java consumer frames to our provider", () => {
  let provider: FixtureProvider | undefined;
  let lines: JavaClientLine[] = [];

  before(async () => {
    compileJavaDubboHarness();
    provider = await startFixtureProvider();
    lines = await runJavaClient("127.0.0.1", provider.port);
  });

  after(async () => {
    await provider?.stop();
  });

  const response = (name: string, nth = 0): JavaClientLine => {
    const found = lines.filter((l) => l.case === name)[nth];
    assert.ok(found, `no ${name} response from Java; got ${JSON.stringify(lines)}`);
    return found;
  };

  it("java-dubbo - sayHello gets a value response with attachments (dubbo 2.0.2)", () => {
    const r = response("sayHello");
    assert.equal(r.id, "1");
    assert.equal(r.request, false);
    assert.equal(r.event, false);
    assert.equal(r.serialization, 2);
    assert.equal(r.status, 20);
    assert.equal(r.kind, 4, "RESPONSE_VALUE_WITH_ATTACHMENTS");
    assert.equal(r.value, "Hello java");
    assert.equal(typeof r.attachments, "object");
  });

  it("java-dubbo - a com.foo.User argument decodes and a User comes back as the Java class", () => {
    const r = response("greetUser");
    assert.equal(r.status, 20);
    assert.equal(r.kind, 4);
    assert.deepEqual(r.value, {
      $class: "com.foo.User",
      id: "8",
      name: "Hello ann",
      tags: ["a", "b", "greeted"],
    });
  });

  it("java-dubbo - a List<User> argument decodes into the provider's array", () => {
    const r = response("namesOfList");
    assert.equal(r.status, 20);
    assert.deepEqual(r.value, ["bob", "cy"]);
  });

  it("java-dubbo - a heartbeat event is answered with an event response to the same id", () => {
    const r = response("heartbeat");
    assert.equal(r.id, "4");
    assert.equal(r.request, false);
    assert.equal(r.event, true);
    assert.equal(r.status, 20);
    assert.equal(r.value, null);
  });

  it("java-dubbo - a dubbo 2.0.0 request gets a response without attachments", () => {
    const r = response("oldVersion");
    assert.equal(r.status, 20);
    assert.equal(r.kind, 1, "RESPONSE_VALUE");
    assert.equal(r.value, "Hello old");
    assert.equal(r.attachments, undefined);
  });

  it("java-dubbo - an unknown method or service gets an error response naming it, not silence", () => {
    for (const [name, what] of [
      ["unknownMethod", "noSuchMethod"],
      ["unknownService", "com.foo.Missing"],
    ] as const) {
      const r = response(name);
      assert.equal(r.decodeError, undefined);
      const message = r.status === 20 ? JSON.stringify(r.value) : String(r.error);
      assert.ok(
        r.status !== 20 || r.kind === 0 || r.kind === 3,
        `${name}: expected an error, got ${JSON.stringify(r)}`,
      );
      assert.match(message, new RegExp(what.replaceAll(".", "\\.")), `${name}: ${message}`);
    }
  });

  it("java-dubbo - a negative 64-bit request id is echoed bit for bit", () => {
    const r = response("negativeId");
    assert.equal(r.id, "-1234567890123456789");
    assert.equal(r.value, "Hello neg");
  });

  it("java-dubbo - a business exception arrives as the Java exception class with its message", () => {
    const r = response("bizException");
    assert.equal(r.status, 20);
    assert.equal(r.kind, 3, "RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS");
    assert.deepEqual(r.value, { $throwable: FAIL_CLASS, message: "bad user: zed" });
  });

  it("java-dubbo - $echo returns its argument", () => {
    assert.equal(response("echo").value, "ping");
  });

  it("java-dubbo - two requests in one write are both answered", () => {
    assert.deepEqual(
      [response("pipelined", 0), response("pipelined", 1)].map((r) => [r.id, r.value]).sort(),
      [
        ["20", "Hello first"],
        ["21", "Hello second"],
      ],
    );
    assert.equal(
      lines.some((l) => l.case === "readTimeout"),
      false,
    );
  });
});
