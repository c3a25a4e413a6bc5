import type { Attributes, Span, Tracer, TracerProvider } from "@opentelemetry/api";
import { type Filter, type FilterExtension, type RpcResult, withAttachments } from "../../core/index.js";
import { listenerFilter } from "../../filter/index.js";
import { otelApi, tracerProviderRegistered } from "./otel-api.js";
import {
  contextFromAttachments,
  PROPAGATION_TYPE_KEY,
  propagationTypeOf,
  traceAttachments,
} from "./trace-propagation.js";

/** Java 3's names for its tracing filters (`ObservationSenderFilter`, `ObservationReceiverFilter`). */
const CONSUMER_TRACING_FILTER = "observationsender";
const PROVIDER_TRACING_FILTER = "observationreceiver";
/** Ours: the per-attempt half of the client span (its provider's address). */
const CONSUMER_PEER_FILTER = "observationsenderpeer";

/** Java's order for both (`Integer.MIN_VALUE + 50`): the outermost filter, so the span covers the rest. */
const TRACING_ORDER = -2147483598;
const TRACER_NAME = "dubbo-ts";

/** The provider the API hands out while no SDK registered one: seeing it means tracing is off. */
let noopProvider: TracerProvider | undefined;
let lastProvider: TracerProvider | undefined;
let lastTracer: Tracer | undefined;

/**
 * The registered tracer, or undefined when no tracer provider is registered: then a call pays
 * one property read, and no span, context or attachment is built.
 */
function activeTracer(): Tracer | undefined {
  if (!tracerProviderRegistered()) return undefined;
  const { ProxyTracerProvider, trace } = otelApi();
  noopProvider ??= new ProxyTracerProvider().getDelegate();
  const global = trace.getTracerProvider();
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  if (provider === noopProvider) return undefined;
  if (provider !== lastProvider) {
    lastProvider = provider;
    lastTracer = provider.getTracer(TRACER_NAME);
  }
  return lastTracer;
}

/** Java's `DubboObservationDocumentation` keys of the call. */
function callAttributes(service: string, method: string): Attributes {
  return { "rpc.system": "apache_dubbo", "rpc.service": service, "rpc.method": method };
}

/** Java's peer keys; the port is a string there, so it is here too. */
function peerAttributes(host: string, port: string): Attributes {
  return { "net.peer.name": host, "net.peer.port": port };
}

async function endWith(span: Span, call: Promise<RpcResult>): Promise<RpcResult> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof Error) span.recordException(error);
    span.setStatus({
      code: otelApi().SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    span.end();
  }
}

/** Client spans whose first attempt has not named its provider yet. */
const awaitingPeer = new WeakSet<Span>();

/**
 * The consumer's client span `{service}/{method}`, one per logical call as Java's cluster filter
 * makes it (however many providers failover tries), child of the caller's active span, its
 * context sent in every attempt's attachments and active while the attempts run.
 */
export const consumerTracingFilter: Filter = (next, invoker) => {
  const type = propagationTypeOf(invoker.url.get(PROPAGATION_TYPE_KEY));
  return (inv) => {
    const tracer = activeTracer();
    if (tracer === undefined) return next(inv);
    const { context, isSpanContextValid, SpanKind, trace } = otelApi();
    const parent = context.active();
    const span = tracer.startSpan(
      `${inv.service}/${inv.method}`,
      { kind: SpanKind.CLIENT, attributes: callAttributes(inv.service, inv.method) },
      parent,
    );
    const spanContext = span.spanContext();
    if (!isSpanContextValid(spanContext)) return endWith(span, next(inv));
    awaitingPeer.add(span);
    const traced = withAttachments(inv, traceAttachments(spanContext, type));
    return endWith(
      span,
      context.with(trace.setSpan(parent, span), () => next(traced)),
    );
  };
};

/**
 * Per attempt: names the first provider tried on the client span (Java tags the span with its
 * first invoked invoker), found as the active span while the attempts run.
 */
export const consumerPeerFilter: Filter = listenerFilter((invoker) => {
  const peer = peerAttributes(invoker.url.host, String(invoker.url.port));
  // A listener with only a `begin`: it shares the step the consumer chain starts with.
  return {
    begin() {
      if (!tracerProviderRegistered()) return undefined;
      const { context, trace } = otelApi();
      const span = trace.getSpan(context.active());
      if (span !== undefined && awaitingPeer.delete(span)) span.setAttributes(peer);
      return undefined;
    },
  };
});

/**
 * The provider's server span `{service}/{method}`, child of the span the caller sent (W3C or B3),
 * active while the service's code runs so its own spans and calls join the trace.
 */
export const providerTracingFilter: Filter = (next) => (inv) => {
  const tracer = activeTracer();
  if (tracer === undefined) return next(inv);
  const { context, SpanKind, trace } = otelApi();
  const remote = inv.remoteAddress ?? "";
  const colon = remote.lastIndexOf(":");
  const parent = contextFromAttachments(context.active(), inv.attachments);
  const span = tracer.startSpan(
    `${inv.service}/${inv.method}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        ...callAttributes(inv.service, inv.method),
        ...peerAttributes(remote.slice(0, colon), remote.slice(colon + 1)),
      },
    },
    parent,
  );
  return endWith(
    span,
    context.with(trace.setSpan(parent, span), () => next(inv)),
  );
};

/** The tracing filters of an application, by name, with Java's activation. */
export const tracingFilterExtensions: ReadonlyArray<readonly [string, FilterExtension]> = [
  [
    PROVIDER_TRACING_FILTER,
    { filter: providerTracingFilter, activate: { side: "provider", order: TRACING_ORDER } },
  ],
  [
    CONSUMER_TRACING_FILTER,
    {
      filter: consumerTracingFilter,
      activate: { side: "consumer", order: TRACING_ORDER },
      aroundCluster: true,
    },
  ],
  [
    CONSUMER_PEER_FILTER,
    { filter: consumerPeerFilter, activate: { side: "consumer", order: TRACING_ORDER } },
  ],
];
