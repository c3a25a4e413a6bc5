import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import { type JavaType, java } from "../java/java-type.js";
import { createInvocation } from "./invocation.js";
import { createMethodDispatch } from "./method-dispatch.js";
import { defineService } from "./service-definition.js";

const Greeter = defineService("com.foo.Greeter", {
  sayHello: { args: [java.String], returns: java.String },
  sayHelloTimes: { javaName: "sayHello", args: [java.String, java.int], returns: java.String },
  describe: { args: [java.Object], returns: java.String },
});

function call(method: string, parameterTypes: readonly JavaType[], args: unknown[]) {
  return createInvocation({ service: Greeter.interfaceName, method, parameterTypes, args });
}

describe("method dispatch", () => {
  it("dispatch - overloads are told apart by parameter types, also when the types come from elsewhere", () => {
    const dispatch = createMethodDispatch(Greeter);
    assert.deepEqual(dispatch.names, ["sayHello", "describe"]);
    const one = dispatch.resolve(call("sayHello", Greeter.methods.sayHello.args, ["ann"]));
    assert.equal(one instanceof RpcError ? one.message : one.key, "sayHello");
    // Types parsed from a descriptor are other objects with the same descriptors.
    const two = dispatch.resolve(call("sayHello", [java.String, java.int], ["ann", 3]));
    assert.equal(two instanceof RpcError ? two.message : two.key, "sayHelloTimes");
  });

  it("dispatch - a missing overload, a wrong count and a wrong type are errors, never a method", () => {
    const dispatch = createMethodDispatch(Greeter);
    const missing = dispatch.resolve(call("sayHello", [java.int], [3]));
    assert.ok(missing instanceof RpcError && missing.code === Code.Unimplemented);
    assert.match(
      missing.message,
      /no method sayHello\(int\) \(it has sayHello\(java\.lang\.String\), sayHello\(java\.lang\.String, int\)\)/,
    );
    const count = dispatch.resolve(call("sayHello", Greeter.methods.sayHello.args, []));
    assert.ok(count instanceof RpcError && count.code === Code.InvalidArgument);
    const wrong = dispatch.resolve(call("sayHello", Greeter.methods.sayHelloTimes.args, ["ann", "3"]));
    assert.ok(wrong instanceof RpcError && wrong.code === Code.InvalidArgument);
    assert.match(
      wrong.message,
      /sayHello\(java\.lang\.String, int\): args\[1\] is the string "3", not int; the provider did not run the method/,
    );
    const anything = dispatch.resolve(call("describe", Greeter.methods.describe.args, [new Map()]));
    assert.ok(!(anything instanceof RpcError), "an Object parameter takes any value");
  });
});
