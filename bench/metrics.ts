// The per-call cost of the monitor: a provider filter chain around an invoker that answers at
// once, run without the call-event filter, with it and nobody listening, and with the metrics on.

import { consoleLogger } from "../src/core/index.js";
import { buildFilterChain } from "../src/filter/index.js";
import { CallMetrics, createCallEventFilter, MonitorEvents } from "../src/monitor/index.js";
import { immediateInvoker as invoker, nsPerCall } from "./filter-chain-bench.js";

const CALLS = 500_000;

export async function runMetricsBench(): Promise<void> {
  const bare = await nsPerCall(buildFilterChain(invoker, []), CALLS);
  const events = new MonitorEvents(consoleLogger);
  const chain = buildFilterChain(invoker, [createCallEventFilter(events, "provider")]);
  const idle = await nsPerCall(chain, CALLS);
  const metrics = new CallMetrics(events);
  const measured = await nsPerCall(chain, CALLS);
  metrics.close();
  console.log("metrics: ns per call through a provider filter chain");
  console.log(`  no monitor filter        ${bare.toFixed(0)} ns`);
  console.log(`  filter, no listener      ${idle.toFixed(0)} ns (+${(idle - bare).toFixed(0)})`);
  console.log(`  filter + Java 3 metrics  ${measured.toFixed(0)} ns (+${(measured - bare).toFixed(0)})`);
}
