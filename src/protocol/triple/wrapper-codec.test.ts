import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { java } from "../../core/index.js";
import { decodeHessian, encodeHessian } from "../../serialize/index.js";
import {
  decodeRequestWrapper,
  decodeResponseWrapper,
  encodeRequestWrapper,
  encodeResponseWrapper,
} from "./wrapper-codec.js";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const text = (s: string): string => Buffer.from(s).toString("hex");

describe("triple wrapper codec", () => {
  test("wrapper codec - a request is field 1, every arg (2), then every arg type (3), as Java writes it", () => {
    const bytes = encodeRequestWrapper({
      serializeType: "hessian4",
      args: [encodeHessian("hi", java.String), encodeHessian(7, java.int)],
      argTypes: ["java.lang.String", "int"],
    });
    // tag 0x0a = field 1 / wire type 2; 0x12 = field 2; 0x1a = field 3.
    const expected =
      `0a08${text("hessian4")}` +
      `1203${"026869"}` + // Hessian "hi"
      `1201${"97"}` + // Hessian int 7
      `1a10${text("java.lang.String")}` +
      `1a03${text("int")}`;
    assert.equal(hex(bytes), expected);
    const decoded = decodeRequestWrapper(bytes);
    assert.equal(decoded.serializeType, "hessian4");
    assert.deepEqual(decoded.argTypes, ["java.lang.String", "int"]);
    assert.equal(decodeHessian(decoded.args[0]!, java.String), "hi");
    assert.equal(decodeHessian(decoded.args[1]!, java.int), 7);
  });

  test("wrapper codec - names read before come back as read, told apart from other names of their length", () => {
    // Decoded names are remembered by their bytes: the same bytes give the same name, other bytes
    // of the same length (and non-ASCII names) their own, whatever the buffer they sit in.
    const names = ["com.acme.Left", "com.acme.Rigt", "com.acme.Émile", "com.acme.Left"];
    for (let round = 0; round < 2; round++) {
      for (const name of names) {
        const bytes = encodeRequestWrapper(
          { serializeType: "hessian4", args: [], argTypes: [name, "int"] },
          3,
        );
        const decoded = decodeRequestWrapper(bytes.subarray(3));
        assert.deepEqual(decoded.argTypes, [name, "int"]);
        assert.equal(decoded.serializeType, "hessian4");
      }
    }
    const plain = encodeResponseWrapper({
      serializeType: "hessian4",
      data: undefined,
      type: "com.acme.Rigt",
    });
    assert.equal(decodeResponseWrapper(new Uint8Array(plain)).type, "com.acme.Rigt");
  });

  test("wrapper codec - a request without arguments is the serialize type alone", () => {
    const bytes = encodeRequestWrapper({ serializeType: "hessian4", args: [], argTypes: [] });
    assert.equal(hex(bytes), `0a08${text("hessian4")}`);
    assert.deepEqual(decodeRequestWrapper(bytes), { serializeType: "hessian4", args: [], argTypes: [] });
  });

  test("wrapper codec - a response is serialize type, data, type; without data field 2 is left out", () => {
    const data = encodeHessian("ok", java.String);
    const bytes = encodeResponseWrapper({ serializeType: "hessian4", data, type: "java.lang.String" });
    assert.equal(hex(bytes), `0a08${text("hessian4")}1203${hex(data)}1a10${text("java.lang.String")}`);
    const decoded = decodeResponseWrapper(bytes);
    assert.equal(decoded.type, "java.lang.String");
    assert.equal(decodeHessian(decoded.data!, java.String), "ok");
    const empty = encodeResponseWrapper({ serializeType: "hessian4", data: undefined, type: "void" });
    assert.equal(hex(empty), `0a08${text("hessian4")}1a04${text("void")}`);
    assert.equal(decodeResponseWrapper(empty).data, undefined);
  });

  test("wrapper codec - headroom leaves bytes unwritten before the same message", () => {
    const request = {
      serializeType: "hessian4",
      args: [encodeHessian("a", java.String)],
      argTypes: ["java.lang.String"],
    };
    assert.equal(hex(encodeRequestWrapper(request, 5).subarray(5)), hex(encodeRequestWrapper(request)));
    const response = {
      serializeType: "hessian4",
      data: encodeHessian("ok", java.String),
      type: "java.lang.String",
    };
    assert.equal(hex(encodeResponseWrapper(response, 5).subarray(5)), hex(encodeResponseWrapper(response)));
  });

  test("wrapper codec - lengths of 128 bytes and more take a two-byte varint", () => {
    const arg = new Uint8Array(300).fill(0x41);
    const bytes = encodeRequestWrapper({ serializeType: "hessian4", args: [arg], argTypes: [] });
    assert.equal(hex(bytes.subarray(10, 13)), "12ac02"); // 300 = 0xac 0x02
    assert.equal(decodeRequestWrapper(bytes).args[0]!.length, 300);
  });

  test("wrapper codec - names decoded before are told apart by every byte, whatever buffer they arrive in", () => {
    const names = ["java.lang.String", "java.lang.Strinh", "java.util.Lisé", "java.util.List"];
    for (let round = 0; round < 2; round++) {
      for (const type of names) {
        const bytes = encodeResponseWrapper({ serializeType: "hessian4", data: undefined, type });
        // Each round decodes from a fresh copy at another offset, as a stream's chunks arrive.
        const copy = Buffer.concat([Buffer.alloc(round + 3), bytes]).subarray(round + 3);
        assert.equal(decodeResponseWrapper(copy).type, type);
        copy.fill(0);
      }
      assert.deepEqual(
        decodeRequestWrapper(encodeRequestWrapper({ serializeType: "hessian4", args: [], argTypes: names })),
        { serializeType: "hessian4", args: [], argTypes: names },
      );
    }
  });

  test("wrapper codec - a protobuf message with other wire types is refused, naming IDL mode", () => {
    // field 1 as a varint (wire type 0): an IDL-mode message, not a wrapper.
    assert.throws(() => decodeRequestWrapper(Buffer.from([0x08, 0x01])), /wire type 0.*IDL/);
    assert.throws(() => decodeResponseWrapper(Buffer.from([0x0a, 0x05, 0x41])), /runs past the end/);
  });
});
