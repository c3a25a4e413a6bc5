// The per-call cost of the monitor: a provider filter chain around an invoker that answers at
// once, run without the call-event filter, with it and nobody listening, and with the metrics on.
import { consoleLogger, createInvocation, type Invoker, java, resultOf, Url } from "../src/core/index.js";
import { buildFilterChain } from "../src/filter/index.js";
import { CallMetrics, createCallEventFilter, MonitorEvents } from "../src/monitor/index.js";

const CALLS = 500_000;

const invoker: Invoker = {
  url: Url.parse("dubbo://127.0.0.1:20880/com.example.Greeter?application=bench&version=1.0.0"),
  isAvailable: () => true,
  destroy: async () => {},
  invoke: async () => resultOf("ok"),
};
const inv = createInvocation({
  service: "com.example.Greeter",
  method: "greet",
  args: ["x"],
  parameterTypes: [java.String],
  remoteAddress: "127.0.0.1:5555",
});

async function nsPerCall(chain: Invoker): Promise<number> {
  for (let i = 0; i < 20_000; i++) await chain.invoke(inv);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await chain.invoke(inv);
  return Number(process.hrtime.bigint() - t0) / CALLS;
}

export async function runMetricsBench(): Promise<void> {
  const bare = await nsPerCall(buildFilterChain(invoker, []));
  const events = new MonitorEvents(consoleLogger);
  const chain = buildFilterChain(invoker, [createCallEventFilter(events, "provider")]);
  const idle = await nsPerCall(chain);
  const metrics = new CallMetrics(events);
  const measured = await nsPerCall(chain);
  metrics.close();
  console.log("metrics: ns per call through a provider filter chain");
  console.log(`  no monitor filter        ${bare.toFixed(0)} ns`);
  console.log(`  filter, no listener      ${idle.toFixed(0)} ns (+${(idle - bare).toFixed(0)})`);
  console.log(`  filter + Java 3 metrics  ${measured.toFixed(0)} ns (+${(measured - bare).toFixed(0)})`);
}
