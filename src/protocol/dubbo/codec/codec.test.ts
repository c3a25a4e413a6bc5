import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BizError, java } from "../../../core/index.js";
import { createHessian2Serialization, createJsonSerialization } from "../../../serialize/index.js";
import { BodyOutputSlot } from "./body-output.js";
import { intVersion, supportsResponseAttachments } from "./dubbo-version.js";
import { KeptInput } from "./kept-input.js";
import {
  encodeAttachments,
  encodeRequestBody,
  encodeRequestFrame,
  encodeRequestHead,
  readRequestHead,
  readRequestTail,
} from "./request-body.js";
import { RequestCache } from "./request-cache.js";
import {
  decodeResponseBody,
  encodeExceptionResponse,
  encodeValueResponse,
  encodeValueResponseFrame,
} from "./response-body.js";

const IFACE = "org.apache.dubbo.demo.DemoService";
const HESSIAN2 = createHessian2Serialization();
const JSON_SERIALIZATION = createJsonSerialization();

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

/** `sayHello("world")` on IFACE, as the golden request bodies spell it. */
const SAY_HELLO = {
  dubboVersion: "2.0.2",
  path: IFACE,
  version: "0.0.0",
  method: "sayHello",
  descriptor: "Ljava/lang/String;",
  parameterTypes: [java.String],
  args: ["world"],
  attachments: { path: IFACE, version: "0.0.0" },
};

const GreetUser = java.Class("org.apache.dubbo.demo.User", { name: java.String, age: java.long });

/** A `greet(User, int)` request with these attachments. */
function greetFields(attachments: Record<string, unknown>) {
  return {
    dubboVersion: "2.0.2",
    path: IFACE,
    version: "1.0.0",
    method: "greet",
    descriptor: "Lorg/apache/dubbo/demo/User;I",
    parameterTypes: [GreetUser, java.int],
    args: [{ name: "Ann", age: 41 }, 7],
    attachments,
  };
}

describe("dubbo codec", () => {
  it('request golden - sayHello("world") as Java\'s DubboCodec.encodeRequestData writes it', () => {
    const body = encodeRequestBody(new BodyOutputSlot(HESSIAN2), SAY_HELLO);
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
    const body = encodeRequestBody(
      new BodyOutputSlot(HESSIAN2),
      greetFields({ timeout: 3000, traceId: "t-1" }),
    );
    const reader = HESSIAN2.createInput(body);
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
    const { args, attachments } = readRequestTail(reader, [GreetUser, java.int]);
    assert.deepEqual({ ...(args[0] as object) }, { name: "Ann", age: 41 });
    assert.equal(args[1], 7);
    assert.deepEqual(attachments, { timeout: 3000, traceId: "t-1" });
  });

  it("request frame - 16 bytes of header room, then the very bytes of the body, from encoded parts, a record or its parts", () => {
    for (const serialization of [HESSIAN2, JSON_SERIALIZATION]) {
      const slot = new BodyOutputSlot(serialization);
      const fields = greetFields({ interface: IFACE, timeout: "3000", path: IFACE, version: "1.0.0" });
      const body = Buffer.from(encodeRequestBody(slot, fields));
      const head = encodeRequestHead(slot, fields);
      const constants = { interface: IFACE, timeout: "3000" };
      const parts = [
        { record: constants, bytes: encodeAttachments(slot, constants) },
        { path: IFACE, version: "1.0.0" },
      ] as const;
      for (const attachments of [encodeAttachments(slot, fields.attachments), fields.attachments, parts]) {
        const frame = encodeRequestFrame(slot, head, fields.parameterTypes, fields.args, attachments);
        assert.equal(frame.length, 16 + body.length, serialization.name);
        assert.equal(frame.subarray(16).toString("hex"), body.toString("hex"), serialization.name);
      }
    }
  });

  it("response frame - 16 bytes of header room, then the very bytes of the body, with or without attachments", () => {
    const slot = new BodyOutputSlot(HESSIAN2);
    for (const [attach, attachments] of [
      [true, {}],
      [true, { k: "v" }],
      [false, {}],
    ] as const) {
      const body = Buffer.from(encodeValueResponse(slot, "Hello", java.String, attach, attachments));
      const frame = encodeValueResponseFrame(slot, "Hello", java.String, attach, attachments);
      assert.equal(frame.subarray(16).toString("hex"), body.toString("hex"));
      assert.equal(frame.length, 16 + body.length);
    }
  });

  it("request cache - repeated requests decode to the same head and a fresh attachments record each time", () => {
    const slot = new BodyOutputSlot(HESSIAN2);
    const cache = new RequestCache(HESSIAN2);
    const encode = (name: string, attachments: Record<string, unknown>) =>
      Buffer.from(
        encodeRequestBody(slot, {
          ...SAY_HELLO,
          args: [name],
          attachments,
        }),
      );
    const read = (body: Buffer) => {
      const { head, input: reader } = cache.readHead(body);
      const [arg] = [reader.readValue(java.String)];
      const attachments = cache.readAttachments(body, reader, (r) => readRequestTail(r, []).attachments);
      return { head, arg, attachments };
    };
    const first = read(encode("ann", { timeout: "1000", traceId: "t-1" }));
    first.attachments.path = "mutated by the provider";
    const second = read(encode("bob", { timeout: "1000", traceId: "t-1" }));
    assert.deepEqual({ ...second.head }, { ...first.head });
    assert.equal(second.head.method, "sayHello");
    assert.equal(second.arg, "bob");
    assert.deepEqual(second.attachments, { timeout: "1000", traceId: "t-1" });
    Object.assign(second.attachments, { extra: 1 });
    const third = read(encode("cy", { timeout: "999", traceId: "t-2" }));
    assert.deepEqual(third.attachments, { timeout: "999", traceId: "t-2" });
    assert.deepEqual(read(encode("dee", { timeout: "1000", traceId: "t-1" })).attachments, {
      timeout: "1000",
      traceId: "t-1",
    });
  });

  it("request cache - rests after a run of misses (every call different), then remembers again", () => {
    const slot = new BodyOutputSlot(HESSIAN2);
    const cache = new RequestCache(HESSIAN2);
    const body = (method: string) =>
      Buffer.from(encodeRequestBody(slot, { ...SAY_HELLO, method, args: ["ann"], attachments: {} }));
    const headOf = (method: string) => cache.readHead(body(method)).head;
    const same = headOf("sayHello");
    assert.equal(headOf("sayHello"), same, "a repeated head is the remembered one");
    // Far more all-different heads than the misses that start a rest (16): the cache now rests.
    for (let i = 0; i < 100; i++) headOf(`m${i}`);
    const resting = headOf("again");
    assert.notEqual(headOf("again"), resting, "a resting cache decodes again instead of remembering");
    assert.equal(resting.method, "again");
    // A rest lasts a bounded number of lookups (1 024): well past it, repeats hit again.
    for (let i = 0; i < 3000; i++) headOf("again");
    const remembered = headOf("again");
    assert.equal(headOf("again"), remembered);
  });

  it("response golden - a value with attachments (flag 4) for a 2.0.2 request", () => {
    const body = encodeValueResponse(new BodyOutputSlot(HESSIAN2), "Hello world", java.String, true, {});
    const expected = Buffer.from([
      0x94, // flag RESPONSE_VALUE_WITH_ATTACHMENTS = 4, written as a compact Hessian int (0x90 + 4)
      ...short("Hello world"), // the value, as the return type java.lang.String
      0x48, // attachments map
      ...short("dubbo"), // Java always adds dubbo=<protocol version> to the response attachments
      ...short("2.0.2"),
      0x5a,
    ]);
    assert.equal(body.toString("hex"), expected.toString("hex"));
    const decoded = decodeResponseBody(HESSIAN2, body, java.String);
    assert.equal(decoded.value, "Hello world");
    assert.deepEqual(decoded.attachments, { dubbo: "2.0.2" });
  });

  it("kept input - one input decodes interleaved responses of two types, and no value views a body", () => {
    const User = java.Class("com.foo.User", {
      id: java.long,
      name: java.String,
      tags: java.List(java.String),
    });
    const slot = new BodyOutputSlot(HESSIAN2);
    const inputs = new KeptInput(HESSIAN2);
    const decoded: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const user = { id: i, name: `user ${i}`, tags: [`t${i}`] };
      const bodies = [
        // Copies: a body is a view of a socket chunk, which the next read overwrites.
        [Buffer.from(encodeValueResponse(slot, user, User, true, { k: `v${i}` })), User],
        [Buffer.from(encodeValueResponse(slot, Buffer.from([i, 1, 2]), java.bytes, true, {})), java.bytes],
        [Buffer.from(encodeValueResponse(slot, `text ${i}`, java.String, false, {})), java.String],
      ] as const;
      for (const [body, type] of bodies) {
        const response = decodeResponseBody(HESSIAN2, body, type, inputs);
        body.fill(0);
        decoded.push(response.value, response.attachments);
      }
    }
    decoded.forEach((value, n) => {
      const i = Math.floor(n / 6);
      const expected = [
        { id: i, name: `user ${i}`, tags: [`t${i}`] },
        { k: `v${i}`, dubbo: "2.0.2" },
        Buffer.from([i, 1, 2]),
        { dubbo: "2.0.2" },
        `text ${i}`,
        {},
      ][n % 6];
      // The User arrives on its class's prototype: its own fields are compared.
      const own =
        value instanceof Uint8Array ? Buffer.from(value) : typeof value === "object" ? { ...value } : value;
      assert.deepEqual(own, expected, `value ${n}`);
    });
  });

  it("kept input - the same input serves body after body, a body read inside another gets its own", () => {
    const inputs = new KeptInput(HESSIAN2);
    const body = Buffer.from(encodeValueResponse(new BodyOutputSlot(HESSIAN2), "a", java.String, false, {}));
    const first = inputs.take(body);
    const nested = inputs.take(body);
    assert.notEqual(nested, first, "a body taken while the kept input is out gets another");
    assert.equal(nested.readValue(), first.readValue());
    inputs.give(nested);
    inputs.give(first);
    assert.equal(first.remaining, 0, "given back, the input lets go of the body");
    assert.equal(inputs.take(body), first);
    const json = new KeptInput(JSON_SERIALIZATION);
    const jsonBody = Buffer.from(
      encodeValueResponse(new BodyOutputSlot(JSON_SERIALIZATION), "a", java.String, false, {}),
    );
    assert.equal(decodeResponseBody(JSON_SERIALIZATION, jsonBody, java.String, json).value, "a");
  });

  it("response attachments - the bytes of { dubbo } alone decode to one shared record; any other map is read", () => {
    const slot = new BodyOutputSlot(HESSIAN2);
    for (const serialization of [HESSIAN2, JSON_SERIALIZATION]) {
      const plain = new BodyOutputSlot(serialization);
      const first = decodeResponseBody(
        serialization,
        encodeValueResponse(plain, "a", java.String, true, {}),
        java.String,
      );
      const second = decodeResponseBody(
        serialization,
        encodeValueResponse(plain, null, java.String, true, {}),
        java.String,
      );
      assert.deepEqual(first.attachments, { dubbo: "2.0.2" }, serialization.name);
      assert.equal(
        first.attachments,
        second.attachments,
        `${serialization.name}: no map decoded per response`,
      );
      assert.ok(Object.isFrozen(first.attachments));
    }
    const more = encodeValueResponse(slot, "a", java.String, true, { region: "eu" });
    assert.deepEqual(decodeResponseBody(HESSIAN2, more, java.String).attachments, {
      region: "eu",
      dubbo: "2.0.2",
    });
  });

  it("response golden - null and values without attachments (flags 2 and 1) for older callers", () => {
    const slot = new BodyOutputSlot(HESSIAN2);
    assert.equal(encodeValueResponse(slot, null, java.String, false, {}).toString("hex"), "92");
    assert.equal(encodeValueResponse(slot, undefined, java.void, false, {}).toString("hex"), "92");
    assert.equal(
      encodeValueResponse(slot, 5, java.int, false, {}).toString("hex"),
      Buffer.from([0x91, 0x95]).toString("hex"), // flag 1, then int 5
    );
    assert.equal(decodeResponseBody(HESSIAN2, Buffer.from([0x92]), java.String).value, null);
  });

  it("response - an exception (flag 0 / 3) decodes to a BizError with the Java class and message", () => {
    const slot = new BodyOutputSlot(HESSIAN2);
    const error = new BizError("no such user", { javaClass: "com.foo.UserNotFoundException" });
    for (const attach of [false, true]) {
      const body = encodeExceptionResponse(slot, error, attach, { k: "v" });
      assert.equal(body[0], attach ? 0x93 : 0x90);
      const decoded = decodeResponseBody(HESSIAN2, body, java.String);
      assert.ok(decoded.exception instanceof BizError);
      assert.equal(decoded.exception.javaClass, "com.foo.UserNotFoundException");
      assert.equal(decoded.exception.message, "no such user");
      if (attach) assert.deepEqual(decoded.attachments, { k: "v", dubbo: "2.0.2" });
    }
  });

  it("response - an unknown flag is a clear error, not a wrong value", () => {
    assert.throws(
      () => decodeResponseBody(HESSIAN2, Buffer.from([0x97]), undefined),
      /unknown response flag 7/,
    );
  });

  it("json - a request as Java's DubboCodec writes it with fastjson: one JSON text per field, read back", () => {
    const slot = new BodyOutputSlot(JSON_SERIALIZATION);
    const fields = SAY_HELLO;
    const body = Buffer.from(encodeRequestBody(slot, fields));
    assert.equal(
      body.toString(),
      `"2.0.2"\n"${IFACE}"\n"0.0.0"\n"sayHello"\n"Ljava/lang/String;"\n"world"\n{"path":"${IFACE}","version":"0.0.0"}\n`,
    );
    // The spliced head and attachments give the very same bytes.
    const head = encodeRequestHead(slot, fields);
    const frame = encodeRequestFrame(
      slot,
      head,
      fields.parameterTypes,
      fields.args,
      encodeAttachments(slot, fields.attachments),
    );
    assert.equal(frame.subarray(16).toString(), body.toString());
    const { head: read, input } = new RequestCache(JSON_SERIALIZATION).readHead(body);
    assert.equal(read.method, "sayHello");
    assert.deepEqual(readRequestTail(input, [java.String]), {
      args: ["world"],
      attachments: fields.attachments,
    });
  });

  it("json - responses: a value with attachments, and a Java exception as its fields", () => {
    const slot = new BodyOutputSlot(JSON_SERIALIZATION);
    const body = encodeValueResponse(slot, "Hello", java.String, true, {});
    assert.equal(body.toString(), '4\n"Hello"\n{"dubbo":"2.0.2"}\n');
    assert.deepEqual(decodeResponseBody(JSON_SERIALIZATION, body, java.String), {
      value: "Hello",
      exception: undefined,
      attachments: { dubbo: "2.0.2" },
    });
    const thrown = Buffer.from('0\n{"@type":"com.foo.NoSuchUser","message":"no user 7"}\n');
    const decoded = decodeResponseBody(JSON_SERIALIZATION, thrown, java.String);
    assert.ok(decoded.exception instanceof BizError);
    assert.equal(decoded.exception.message, "no user 7");
    assert.equal(decoded.exception.javaClass, "com.foo.NoSuchUser");
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
