import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BizError } from "./biz-error.js";
import { Code } from "./code.js";
import { isRetryable, RpcError } from "./rpc-error.js";

describe("RpcError", () => {
  it("message - carries the code name so logs always show it", () => {
    const e = new RpcError("no provider for com.foo.S", Code.Unavailable);
    assert.equal(e.message, "[unavailable] no provider for com.foo.S");
    assert.equal(e.rawMessage, "no provider for com.foo.S");
    assert.equal(e.code, Code.Unavailable);
  });

  it("from - keeps the cause and maps abort and timeout errors", () => {
    const plain = new Error("boom");
    assert.equal(RpcError.from(plain).cause, plain);
    assert.equal(RpcError.from(plain, Code.Internal).code, Code.Internal);
    assert.equal(RpcError.from(new DOMException("stop", "AbortError")).code, Code.Canceled);
    assert.equal(RpcError.from(new DOMException("late", "TimeoutError")).code, Code.DeadlineExceeded);
    const same = new RpcError("x", Code.Internal);
    assert.equal(RpcError.from(same), same);
    assert.equal(RpcError.from("text").rawMessage, "text");
  });

  it("instanceof - recognises a look-alike from another copy of the package", () => {
    const kRpcError = Symbol.for("dubbo-ts.RpcError");
    const foreign = { [kRpcError]: true, code: Code.Internal, message: "[internal] x" };
    assert.ok(foreign instanceof RpcError);
    assert.ok(!(new Error("x") instanceof RpcError));
    assert.ok(!(new BizError("x") instanceof RpcError));
  });

  it("isRetryable - every failure but a business error or a cancel, as Java's failover", () => {
    for (const code of [
      Code.Unavailable,
      Code.DeadlineExceeded,
      Code.ResourceExhausted,
      Code.Unimplemented, // SERVICE_NOT_FOUND (60)
      Code.Unknown, // SERVICE_ERROR (70)
      Code.InvalidArgument,
      Code.Internal,
    ]) {
      assert.equal(isRetryable(new RpcError("x", code)), true, `code ${code}`);
    }
    assert.equal(isRetryable(new Error("thrown below the cluster")), true);
    assert.equal(isRetryable(new RpcError("x", Code.Canceled)), false);
    assert.equal(isRetryable(new BizError("x")), false);
  });
});

describe("BizError", () => {
  it("javaClass - defaults to java.lang.RuntimeException and can be chosen", () => {
    assert.equal(new BizError("x").javaClass, "java.lang.RuntimeException");
    const e = new BizError("bad id", { javaClass: "java.lang.IllegalArgumentException" });
    assert.equal(e.javaClass, "java.lang.IllegalArgumentException");
    assert.equal(e.message, "bad id");
    assert.ok(e instanceof BizError);
    assert.ok(e instanceof Error);
  });
});
