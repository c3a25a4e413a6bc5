import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTraceState, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from "@opentelemetry/api";
import { RpcError } from "../../core/index.js";
import { contextFromAttachments, propagationTypeOf, traceAttachments } from "./trace-propagation.js";

const span: SpanContext = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
  traceState: createTraceState("vendor=a,other=b"),
};

const remoteOf = (attachments: Record<string, unknown>) =>
  trace.getSpanContext(contextFromAttachments(ROOT_CONTEXT, attachments));

describe("trace propagation in attachments", () => {
  it("W3C: traceparent and tracestate, read back as the remote parent", () => {
    const attachments = traceAttachments(span, "W3C");
    assert.deepEqual(attachments, {
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      tracestate: "vendor=a,other=b",
    });
    const remote = remoteOf(attachments);
    assert.equal(remote?.traceId, span.traceId);
    assert.equal(remote?.spanId, span.spanId);
    assert.equal(remote?.traceFlags, TraceFlags.SAMPLED);
    assert.equal(remote?.isRemote, true);
    assert.equal(remote?.traceState?.get("vendor"), "a");
  });

  it("B3: the single b3 attachment Java's B3 propagator writes; a 64-bit trace id is widened", () => {
    assert.deepEqual(traceAttachments({ ...span, traceFlags: TraceFlags.NONE }, "B3"), {
      b3: "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",
    });
    const remote = remoteOf({ b3: "a3ce929d0e0e4736-00f067aa0ba902b7-1-05e3ac9a4f6e3b90" });
    assert.equal(remote?.traceId, "0000000000000000a3ce929d0e0e4736");
    assert.equal(remote?.spanId, "00f067aa0ba902b7");
    assert.equal(remote?.traceFlags, TraceFlags.SAMPLED);
    assert.equal(remoteOf({ b3: "a3ce929d0e0e4736-00f067aa0ba902b7" })?.traceFlags, TraceFlags.NONE);
  });

  it("malformed or all-zero contexts are ignored, so the span starts a trace of its own", () => {
    assert.equal(remoteOf({ traceparent: "00-xyz-00f067aa0ba902b7-01" }), undefined);
    assert.equal(remoteOf({ traceparent: `00-${"0".repeat(32)}-00f067aa0ba902b7-01` }), undefined);
    assert.equal(remoteOf({ b3: 42 }), undefined);
    assert.equal(remoteOf({}), undefined);
  });

  it("an unknown propagation type names the key and the choices", () => {
    assert.equal(propagationTypeOf(undefined), "W3C");
    assert.equal(propagationTypeOf("B3"), "B3");
    assert.throws(
      () => propagationTypeOf("jaeger"),
      (e: unknown) =>
        e instanceof RpcError &&
        /tracing\.propagation\.type=jaeger .* use W3C \(the default\) or B3/.test(e.message),
    );
  });
});
