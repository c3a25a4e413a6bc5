import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createExtensions } from "../app/extensions.js";
import { BUILTIN_EXTENSION_NAMES } from "./extension-name-types.js";

const sorted = (names: readonly string[]) => [...names].sort();

describe("BUILTIN_EXTENSION_NAMES", () => {
  it("lists exactly what a fresh application registers, so the name types match run time", () => {
    const extensions = createExtensions();
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.protocol), sorted(extensions.protocol.names()));
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.registry), sorted(extensions.registry.names()));
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.cluster), sorted(extensions.cluster.names()));
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.loadbalance), sorted(extensions.loadBalance.names()));
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.filter), sorted(extensions.filter.names()));
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.threadpool), sorted(extensions.threadPool.names()));
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.dispatcher), sorted(extensions.dispatcher.names()));
    assert.deepEqual(sorted(BUILTIN_EXTENSION_NAMES.serialization), sorted(extensions.serialization.names()));
  });
});
