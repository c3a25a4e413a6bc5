// On Triple the trace context rides as plain HTTP/2 headers named as Java Dubbo 3 names them
// (its `DubboClientContext` sets them as attachments, which Triple writes as lower-case headers):
// `traceparent` and `tracestate` for W3C, `b3` for B3, read back as the caller's span.
import assert from "node:assert/strict";
import type { OutgoingHttpHeaders } from "node:http2";
import { it } from "node:test";
import { createTraceState, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from "@opentelemetry/api";
import { contextFromAttachments, traceAttachments } from "../../src/monitor/tracing/trace-propagation.js";
import { attachmentsToHeaders, headersToAttachments } from "../../src/protocol/triple/triple-headers.js";

const span: SpanContext = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
  traceState: createTraceState("vendor=a"),
};

it("triple trace headers - W3C and B3 travel as Java's header names and come back as the parent", () => {
  for (const [type, expected] of [
    ["W3C", { traceparent: `00-${span.traceId}-${span.spanId}-01`, tracestate: "vendor=a" }],
    ["B3", { b3: `${span.traceId}-${span.spanId}-1` }],
  ] as const) {
    const headers: OutgoingHttpHeaders = {};
    attachmentsToHeaders(traceAttachments(span, type), headers);
    assert.deepEqual(headers, expected, `${type} headers`);
    const parent = trace.getSpanContext(
      contextFromAttachments(ROOT_CONTEXT, headersToAttachments(headers as Record<string, string>)),
    );
    assert.equal(parent?.traceId, span.traceId);
    assert.equal(parent?.spanId, span.spanId);
    assert.equal(parent?.isRemote, true);
  }
});
