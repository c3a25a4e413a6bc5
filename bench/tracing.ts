// The per-call cost of tracing: a consumer and a provider filter chain around an invoker that
// answers at once, without the tracing filters, with them and no tracer provider registered
// (tracing off), and with the OpenTelemetry SDK's provider sampling every call (spans dropped
// by a no-op processor, so only the spans' own cost counts).
import { trace } from "@opentelemetry/api";
import { AlwaysOnSampler, BasicTracerProvider, NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { buildFilterChain, consumerContextFilter } from "../src/filter/index.js";
import { consumerPeerFilter, consumerTracingFilter, providerTracingFilter } from "../src/monitor/index.js";
import { compareChains, immediateInvoker as invoker } from "./filter-chain-bench.js";

const CALLS = 100_000;

export async function runTracingBench(): Promise<void> {
  // The client span's two halves: per logical call, around the one attempt that names its peer.
  // The attempt's half is a listener: as in an application, it shares the promise step of the
  // consumer chain's other listeners (here the consumer context filter, which both chains run).
  const traced = buildFilterChain(
    buildFilterChain(buildFilterChain(invoker, [providerTracingFilter]), [
      consumerPeerFilter,
      consumerContextFilter,
    ]),
    [consumerTracingFilter],
  );
  const sdk = new BasicTracerProvider({
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new NoopSpanProcessor()],
  });
  await compareChains(
    "tracing, through a consumer and a provider filter chain",
    [
      // The consumer's chain ends in the provider's, as one call crosses both ends.
      { label: "no tracing filters", chain: buildFilterChain(invoker, [consumerContextFilter]) },
      { label: "filters, no tracer provider", chain: traced },
      {
        label: "filters + SDK, 2 spans/call",
        chain: traced,
        enter: () => {
          trace.setGlobalTracerProvider(sdk);
          return () => trace.disable();
        },
      },
    ],
    CALLS,
  );
}
