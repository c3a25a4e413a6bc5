// The per-call cost of tracing: a consumer and a provider filter chain around an invoker that
// answers at once, without the tracing filters, with them and no tracer provider registered
// (tracing off), and with the OpenTelemetry SDK's provider sampling every call (spans dropped
// by a no-op processor, so only the spans' own cost counts).
import { trace } from "@opentelemetry/api";
import { AlwaysOnSampler, BasicTracerProvider, NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { buildFilterChain } from "../src/filter/index.js";
import { consumerPeerFilter, consumerTracingFilter, providerTracingFilter } from "../src/monitor/index.js";
import { immediateInvoker as invoker, nsPerCall } from "./filter-chain-bench.js";

const CALLS = 200_000;

export async function runTracingBench(): Promise<void> {
  // The consumer's chain ends in the provider's, as one call crosses both ends.
  const bare = await nsPerCall(buildFilterChain(buildFilterChain(invoker, []), []), CALLS);
  // The client span's two halves: per logical call, around the one attempt that names its peer.
  const traced = buildFilterChain(
    buildFilterChain(buildFilterChain(invoker, [providerTracingFilter]), [consumerPeerFilter]),
    [consumerTracingFilter],
  );
  const off = await nsPerCall(traced, CALLS);
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new NoopSpanProcessor()] }),
  );
  const on = await nsPerCall(traced, CALLS);
  trace.disable();
  console.log("tracing: ns per call through a consumer and a provider filter chain");
  console.log(`  no tracing filters           ${bare.toFixed(0)} ns`);
  console.log(`  filters, no tracer provider  ${off.toFixed(0)} ns (+${(off - bare).toFixed(0)})`);
  console.log(`  filters + SDK, 2 spans/call  ${on.toFixed(0)} ns (+${(on - bare).toFixed(0)})`);
}
