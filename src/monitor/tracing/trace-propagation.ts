import type { Context, SpanContext } from "@opentelemetry/api";
import { type Attachments, Code, RpcError } from "../../core/index.js";
import { otelApi } from "./otel-api.js";

/**
 * How the trace context travels in a call's attachments, as Java Dubbo 3's
 * `dubbo.tracing.propagation.type`: `W3C` (`traceparent` and `tracestate`, the default) or `B3`
 * (the single `b3` attachment, which Java's OpenTelemetry bridge writes for B3).
 */
export type PropagationType = "W3C" | "B3";

/** The URL key (from the application's `parameters`) that picks the propagation type. */
export const PROPAGATION_TYPE_KEY = "tracing.propagation.type";

const TRACEPARENT = "traceparent";
const TRACESTATE = "tracestate";
const B3 = "b3";
const TRACEPARENT_FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const B3_FORMAT = /^([0-9a-f]{16}|[0-9a-f]{32})-([0-9a-f]{16})(?:-([01d]))?(?:-[0-9a-f]{16})?$/;

export function propagationTypeOf(value: string | undefined): PropagationType {
  if (value === undefined || value === "W3C" || value === "B3") return value ?? "W3C";
  throw new RpcError(
    `${PROPAGATION_TYPE_KEY}=${value} is not a propagation type: use W3C (the default) or B3`,
    Code.InvalidArgument,
  );
}

/** The attachments that carry `span`'s context to the provider. */
export function traceAttachments(span: SpanContext, type: PropagationType): Record<string, string> {
  const { TraceFlags } = otelApi();
  const sampled = (span.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
  if (type === "B3") return { [B3]: `${span.traceId}-${span.spanId}-${sampled ? "1" : "0"}` };
  const traceparent = `00-${span.traceId}-${span.spanId}-${sampled ? "01" : "00"}`;
  const state = span.traceState?.serialize();
  return state ? { [TRACEPARENT]: traceparent, [TRACESTATE]: state } : { [TRACEPARENT]: traceparent };
}

/**
 * The caller's span context read from a request's attachments (W3C first, then B3, whichever the
 * caller's propagation type wrote), as a parent context; `parent` itself when there is none.
 */
export function contextFromAttachments(parent: Context, attachments: Attachments): Context {
  const { isSpanContextValid, trace } = otelApi();
  const remote = w3cSpanContext(attachments) ?? b3SpanContext(attachments);
  return remote && isSpanContextValid(remote) ? trace.setSpanContext(parent, remote) : parent;
}

function w3cSpanContext(attachments: Attachments): SpanContext | undefined {
  const header = attachments[TRACEPARENT];
  const match = typeof header === "string" ? TRACEPARENT_FORMAT.exec(header.trim()) : null;
  if (!match) return undefined;
  const state = attachments[TRACESTATE];
  const { createTraceState, TraceFlags } = otelApi();
  return {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
    ...(typeof state === "string" && state !== "" ? { traceState: createTraceState(state) } : {}),
  };
}

function b3SpanContext(attachments: Attachments): SpanContext | undefined {
  const header = attachments[B3];
  const match = typeof header === "string" ? B3_FORMAT.exec(header.trim()) : null;
  if (!match) return undefined;
  // "d" is B3's debug flag, which implies sampled; no flag defers, which OpenTelemetry reads as not sampled.
  const sampled = match[3] === "1" || match[3] === "d";
  const { TraceFlags } = otelApi();
  return {
    traceId: match[1]!.padStart(32, "0"),
    spanId: match[2]!,
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  };
}
