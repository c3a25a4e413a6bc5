import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, java, RpcError } from "../core/index.js";
import { createHessian2Serialization, createJsonSerialization, javaObject } from "./index.js";

const User = java.Class("com.foo.User", { id: java.long, name: java.String });

describe("serialization", () => {
  it("serialization - hessian2 body shares class definitions across values and reads them back in order", () => {
    const s = createHessian2Serialization();
    assert.equal(s.id, 2);
    const out = s.createOutput();
    out.writeValue("2.0.2", java.String);
    out.writeValue({ id: 1, name: "a" }, User);
    out.writeValue({ id: 2, name: "b" }, User);
    out.writeValue(new Map([["path", "com.foo.Svc"]]));
    const body = out.finish();
    assert.equal(body.toString("latin1").split("com.foo.User").length, 2, "class defined once");
    const input = s.createInput(body);
    assert.equal(input.readValue(java.String), "2.0.2");
    assert.deepEqual(input.readValue(User), javaObject("com.foo.User", { id: 1, name: "a" }));
    assert.deepEqual(input.readValue(User), javaObject("com.foo.User", { id: 2, name: "b" }));
    assert.deepEqual(input.readValue(), new Map([["path", "com.foo.Svc"]]));
    assert.equal(input.offset, body.length);
    // Bodies handed out stay intact while the next ones are written.
    const copy = Buffer.from(body);
    out.writeValue("x".repeat(100));
    out.finish();
    assert.deepEqual(body, copy);
    // The output is reused body after body; each body starts its class definitions afresh.
    out.writeValue({ id: 3, name: "c" }, User);
    const again = out.finish();
    assert.deepEqual(s.createInput(again).readValue(User), javaObject("com.foo.User", { id: 3, name: "c" }));
    // Spliced bytes and a dropped half-written body.
    out.writeValue("dropped");
    out.reset();
    out.writeBytes(Buffer.from([0x91]));
    out.writeValue(5, java.int);
    assert.deepEqual([...out.finish()], [0x91, 0x95]);
  });

  it("serialization - hessian2 errors name the argument path", () => {
    const out = createHessian2Serialization().createOutput();
    assert.throws(
      () => out.writeValue({ id: "x" }, User, "args[1]"),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        /args\[1\]\.id: expected long/.test(e.message),
    );
  });

  it("serialization - json writes one JSON text per line, as fastjson does", () => {
    const s = createJsonSerialization();
    assert.equal(s.id, 6);
    const out = s.createOutput();
    out.writeValue("2.0.2");
    out.writeValue({ id: 2n ** 60n, when: new Date(5), tags: new Set(["a"]) });
    out.writeValue(new Map([["k", 1]]));
    out.writeBytes(Buffer.from("7\n"));
    const body = out.finish();
    assert.equal(body.toString(), '"2.0.2"\n{"id":1152921504606846976,"when":5,"tags":["a"]}\n{"k":1}\n7\n');
    const input = s.createInput(body);
    assert.equal(input.readValue(), "2.0.2");
    assert.deepEqual(input.readValue(), { id: 2 ** 60, when: 5, tags: ["a"] });
    assert.deepEqual(input.readValue(java.Map(java.String, java.int)), new Map([["k", 1]]));
    assert.equal(input.readValue(), 7);
    assert.equal(input.remaining, 0);
    out.writeValue("dropped");
    out.reset();
    out.writeValue(null);
    assert.equal(out.finish().toString(), "null\n");
    assert.throws(
      () => input.readValue(),
      (e: unknown) => e instanceof RpcError && e.code === Code.DataLoss,
    );
    assert.deepEqual(s.createInput(Buffer.from("5\n")).readValue(java.Date), new Date(5));
    assert.throws(
      () => s.createInput(Buffer.from("{oops\n")).readValue(),
      (e: unknown) => e instanceof RpcError && e.code === Code.DataLoss,
    );
  });
});
