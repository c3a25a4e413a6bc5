// The per-call cost of the monitor: a provider filter chain around an invoker that answers at
// once, run without the call-event filter, with it and nobody listening, and with the metrics on.

import { consoleLogger } from "../src/core/index.js";
import { buildFilterChain } from "../src/filter/index.js";
import { CallMetrics, createCallEventFilter, MonitorEvents } from "../src/monitor/index.js";
import { compareChains, immediateInvoker as invoker } from "./filter-chain-bench.js";

const CALLS = 200_000;

export async function runMetricsBench(): Promise<void> {
  const events = new MonitorEvents(consoleLogger);
  const chain = buildFilterChain(invoker, [createCallEventFilter(events, "provider")]);
  await compareChains(
    "metrics, through a provider filter chain",
    [
      { label: "no monitor filter", chain: buildFilterChain(invoker, []) },
      { label: "filter, no listener", chain },
      {
        label: "filter + Java 3 metrics",
        chain,
        enter: () => {
          const metrics = new CallMetrics(events);
          return () => metrics.close();
        },
      },
    ],
    CALLS,
  );
}
