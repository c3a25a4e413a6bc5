import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { java, javaTypeOfDescriptor, parameterDescriptor, parseParameterDescriptor } from "./java-type.js";

describe("JavaType", () => {
  it("descriptor - primitives, boxed types, arrays and classes as the JVM writes them", () => {
    assert.equal(java.int.descriptor, "I");
    assert.equal(java.long.descriptor, "J");
    assert.equal(java.boolean.descriptor, "Z");
    assert.equal(java.Integer.descriptor, "Ljava/lang/Integer;");
    assert.equal(java.String.descriptor, "Ljava/lang/String;");
    assert.equal(java.List(java.String).descriptor, "Ljava/util/List;");
    assert.equal(java.Map(java.String, java.Long).descriptor, "Ljava/util/Map;");
    assert.equal(java.array(java.int).descriptor, "[I");
    assert.equal(java.array(java.int).name, "[I");
    assert.equal(java.array(java.String).name, "[Ljava.lang.String;");
    assert.equal(java.array(java.String).descriptor, "[Ljava/lang/String;");
    assert.equal(java.array(java.array(java.long)).name, "[[J");
    const user = java.Class("com.foo.User", { id: java.long, name: java.String });
    assert.equal(user.descriptor, "Lcom/foo/User;");
    assert.equal(java.array(user).name, "[Lcom.foo.User;");
    assert.equal(java.bytes.descriptor, "[B");
  });

  it("parameterDescriptor - concatenates, as Dubbo's request body carries it", () => {
    assert.equal(
      parameterDescriptor([java.String, java.int, java.array(java.long), java.List(java.String)]),
      "Ljava/lang/String;I[JLjava/util/List;",
    );
    assert.equal(parameterDescriptor([]), "");
  });

  it("parseParameterDescriptor - splits a descriptor back into types", () => {
    const types = parseParameterDescriptor(
      "Ljava/lang/String;I[JLcom/foo/User;[[Ljava/lang/String;Ljava/util/Map;",
    );
    assert.deepEqual(
      types.map((t) => [t.kind, t.name]),
      [
        ["string", "java.lang.String"],
        ["int", "int"],
        ["array", "[J"],
        ["object", "com.foo.User"],
        ["array", "[[Ljava.lang.String;"],
        ["map", "java.util.Map"],
      ],
    );
    assert.throws(() => parseParameterDescriptor("Ljava/lang/String"), /unterminated class descriptor/);
    assert.throws(() => javaTypeOfDescriptor("Q"), /not a JVM type descriptor/);
  });

  it("primitive - only the eight primitives are non-nullable", () => {
    assert.equal(java.int.primitive, true);
    assert.equal(java.Integer.primitive, false);
    assert.equal(java.String.primitive, false);
    assert.equal(java.void.primitive, false);
  });
});
