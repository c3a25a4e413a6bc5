// What the monitor benchmarks share: an invoker that answers at once, calls that differ as real
// traffic does (each its own invocation, argument and `trace` attachment), and a comparison of
// filter chains around that invoker: each contender in at least two rounds, alternating who goes
// first, with CPU, bytes allocated and GC share per call (bench/e2e/measure.ts), medians printed.
import { createInvocation, type Invocation, type Invoker, java, resultOf, Url } from "../src/core/index.js";
import { type ProcessCost, startCostMeter } from "./e2e/measure.js";
import { traceFor } from "./e2e/workloads.js";

export const immediateInvoker: Invoker = {
  url: Url.parse("dubbo://127.0.0.1:20880/com.example.Greeter?application=bench&version=1.0.0"),
  isAvailable: () => true,
  destroy: async () => {},
  invoke: async () => resultOf("ok"),
};

/** The n-th call: a fresh invocation, as every call through a stub or off the wire is. */
function callFor(n: number): Invocation {
  return createInvocation({
    service: "com.example.Greeter",
    method: "greet",
    args: [`name-${n.toString(36)}`],
    parameterTypes: [java.String],
    attachments: { trace: traceFor(n) },
    remoteAddress: "127.0.0.1:5555",
  });
}

export interface ChainContender {
  readonly label: string;
  readonly chain: Invoker;
  /** Switches on what this contender needs (a tracer provider, a metrics listener); returns its undo. */
  readonly enter?: () => () => void;
}

const WARMUP_CALLS = 20_000;
const ROUNDS = 2;

let nextCall = 0;
async function runCalls(contender: ChainContender, calls: number): Promise<ProcessCost> {
  const leave = contender.enter?.();
  try {
    const meter = startCostMeter();
    for (let i = 0; i < calls; i++) await contender.chain.invoke(callFor(nextCall++));
    return meter.stop();
  } finally {
    leave?.();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Runs every contender `calls` times per round, alternating the order each round, and prints per
 * contender the median CPU ns per call (with its difference to the first contender), bytes
 * allocated per call and GC share of wall time.
 */
export async function compareChains(
  title: string,
  contenders: readonly ChainContender[],
  calls: number,
): Promise<void> {
  for (const contender of contenders) await runCalls(contender, WARMUP_CALLS);
  const costs = contenders.map((): ProcessCost[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = contenders.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) costs[i]!.push(await runCalls(contenders[i]!, calls));
  }
  const ns = costs.map((list) => median(list.map((c) => (c.cpuMs * 1e6) / calls)));
  console.log(
    `${title}: CPU ns, bytes allocated and GC share per call, every call different; median of ${ROUNDS} alternating rounds of ${calls} calls`,
  );
  const width = Math.max(...contenders.map((c) => c.label.length));
  contenders.forEach((contender, i) => {
    const list = costs[i]!;
    const bytes = median(list.map((c) => c.allocatedBytes / calls));
    const gc = median(list.map((c) => (c.gcMs / c.wallMs) * 100));
    const delta = ns[i]! - ns[0]!;
    const extra = i === 0 ? "" : ` (${delta >= 0 ? "+" : ""}${delta.toFixed(0)})`;
    console.log(
      `  ${contender.label.padEnd(width)}  ${`${ns[i]!.toFixed(0)} ns${extra}`.padEnd(16)} ${bytes.toFixed(0).padStart(6)} B  GC ${gc.toFixed(1)} %`,
    );
  });
}
