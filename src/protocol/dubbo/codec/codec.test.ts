import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BizError, java } from "../../../core/index.js";
import { BodyWriterSlot } from "./body-writer.js";
import { intVersion, supportsResponseAttachments } from "./dubbo-version.js";
import { createRequestReader, encodeRequestBody, readRequestHead, readRequestTail } from "./request-body.js";
import { decodeResponseBody, encodeExceptionResponse, encodeValueResponse } from "./response-body.js";

const IFACE = "org.apache.dubbo.demo.DemoService";

/** A Hessian 2 compact string (under 32 chars): length byte, then the UTF-8 bytes. */
function short(text: string): number[] {
  assert.ok(text.length < 32);
  return [text.length, ...Buffer.from(text, "utf8")];
}

/** A Hessian 2 medium string (32..1023 chars): 0x30 + high bits of length, low byte, bytes. */
function medium(text: string): number[] {
  assert.ok(text.length >= 32 && text.length < 1024);
  return [0x30 + (text.length >> 8), text.length & 0xff, ...Buffer.from(text, "utf8")];
}

describe("dubbo codec", () => {
  it('request golden - sayHello("world") as Java\'s DubboCodec.encodeRequestData writes it', () => {
    const body = encodeRequestBody(new BodyWriterSlot(), {
      dubboVersion: "2.0.2",
      path: IFACE,
      version: "0.0.0",
      method: "sayHello",
      descriptor: "Ljava/lang/String;",
      parameterTypes: [java.String],
      args: ["world"],
      attachments: { path: IFACE, version: "0.0.0" },
    });
    const expected = Buffer.from([
      ...short("2.0.2"), // dubbo protocol version (writeUTF)
      ...medium(IFACE), // path: 33 chars, so the two-byte length form 0x30 0x21
      ...short("0.0.0"), // service version, "0.0.0" when none
      ...short("sayHello"), // method name
      ...short("Ljava/lang/String;"), // parameter descriptor (ReflectUtils.getDesc)
      ...short("world"), // args[0], written as java.lang.String
      0x48, // 'H': untyped map (a HashMap) of attachments
      ...short("path"),
      ...medium(IFACE),
      ...short("version"),
      ...short("0.0.0"),
      0x5a, // 'Z': end of map
    ]);
    assert.equal(body.toString("hex"), expected.toString("hex"));
  });

  it("request - the provider reads it back: head, typed arguments and attachments", () => {
    const User = java.Class("org.apache.dubbo.demo.User", { name: java.String, age: java.long });
    const body = encodeRequestBody(new BodyWriterSlot(), {
      dubboVersion: "2.0.2",
      path: IFACE,
      version: "1.0.0",
      method: "greet",
      descriptor: "Lorg/apache/dubbo/demo/User;I",
      parameterTypes: [User, java.int],
      args: [{ name: "Ann", age: 41 }, 7],
      attachments: { timeout: 3000, traceId: "t-1" },
    });
    const reader = createRequestReader(body);
    const head = readRequestHead(reader);
    assert.deepEqual(
      { ...head },
      {
        dubboVersion: "2.0.2",
        path: IFACE,
        version: "1.0.0",
        method: "greet",
        descriptor: "Lorg/apache/dubbo/demo/User;I",
      },
    );
    const { args, attachments } = readRequestTail(reader, [User, java.int]);
    assert.deepEqual({ ...(args[0] as object) }, { name: "Ann", age: 41 });
    assert.equal(args[1], 7);
    assert.deepEqual(attachments, { timeout: 3000, traceId: "t-1" });
  });

  it("response golden - a value with attachments (flag 4) for a 2.0.2 request", () => {
    const body = encodeValueResponse(new BodyWriterSlot(), "Hello world", java.String, true, {});
    const expected = Buffer.from([
      0x94, // flag RESPONSE_VALUE_WITH_ATTACHMENTS = 4, written as a compact Hessian int (0x90 + 4)
      ...short("Hello world"), // the value, as the return type java.lang.String
      0x48, // attachments map
      ...short("dubbo"), // Java always adds dubbo=<protocol version> to the response attachments
      ...short("2.0.2"),
      0x5a,
    ]);
    assert.equal(body.toString("hex"), expected.toString("hex"));
    const decoded = decodeResponseBody(body, java.String);
    assert.equal(decoded.value, "Hello world");
    assert.deepEqual(decoded.attachments, { dubbo: "2.0.2" });
  });

  it("response golden - null and values without attachments (flags 2 and 1) for older callers", () => {
    const slot = new BodyWriterSlot();
    assert.equal(encodeValueResponse(slot, null, java.String, false, {}).toString("hex"), "92");
    assert.equal(encodeValueResponse(slot, undefined, java.void, false, {}).toString("hex"), "92");
    assert.equal(
      encodeValueResponse(slot, 5, java.int, false, {}).toString("hex"),
      Buffer.from([0x91, 0x95]).toString("hex"), // flag 1, then int 5
    );
    assert.equal(decodeResponseBody(Buffer.from([0x92]), java.String).value, null);
  });

  it("response - an exception (flag 0 / 3) decodes to a BizError with the Java class and message", () => {
    const slot = new BodyWriterSlot();
    const error = new BizError("no such user", { javaClass: "com.foo.UserNotFoundException" });
    for (const attach of [false, true]) {
      const body = encodeExceptionResponse(slot, error, attach, { k: "v" });
      assert.equal(body[0], attach ? 0x93 : 0x90);
      const decoded = decodeResponseBody(body, java.String);
      assert.ok(decoded.exception instanceof BizError);
      assert.equal(decoded.exception.javaClass, "com.foo.UserNotFoundException");
      assert.equal(decoded.exception.message, "no such user");
      if (attach) assert.deepEqual(decoded.attachments, { k: "v", dubbo: "2.0.2" });
    }
  });

  it("response - an unknown flag is a clear error, not a wrong value", () => {
    assert.throws(() => decodeResponseBody(Buffer.from([0x97]), undefined), /unknown response flag 7/);
  });

  it("version - Java's int version and the response-attachment window [2.0.2, 2.0.99]", () => {
    assert.equal(intVersion("2.0.2"), 2_000_200);
    assert.equal(intVersion("2.0.10"), 2_001_000);
    assert.equal(intVersion("2.6.2.1"), 2_060_201);
    assert.equal(supportsResponseAttachments("2.0.2"), true);
    assert.equal(supportsResponseAttachments("2.0.99"), true);
    assert.equal(supportsResponseAttachments("2.0.1"), false);
    assert.equal(supportsResponseAttachments("2.0.0"), false);
    assert.equal(supportsResponseAttachments("2.7.23"), false);
    assert.equal(supportsResponseAttachments("2.0.2-SNAPSHOT"), true);
    assert.equal(supportsResponseAttachments(""), false);
  });
});
