/**
 * What an AsyncLocalStorage scope per call costs node:http2 alone: the raw gRPC-shaped echo
 * (bench/e2e/http2-contender.ts) plain and with each call in a scope, as dubbo-ts's RpcContext runs
 * its calls, in rounds that alternate in this one process so that a shared machine's drift falls
 * on both alike. On Node 20 a scope turns async_hooks on for the whole process (every promise,
 * nextTick and node:http2 resource runs the storage's init hook); after each scoped round the
 * storage is disabled, which turns them off again. `client` measures this process's client against
 * a plain echo server in a child; `server` this process's server against a client child. Run
 * against the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/triple-als-tax.ts [client|server] [pairs]`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type BenchChild, startBenchChild } from "./e2e/child.js";
import {
  childClientRound,
  closedLoopRound,
  describeRoundCost,
  meterRound,
  type Round,
  type RoundCost,
} from "./e2e/cost-rounds.js";
import { http2Contender } from "./e2e/http2-contender.js";
import { textFor, traceFor } from "./e2e/workloads.js";

const CONCURRENCY = 64;
const ROUND_MS = 1000;

const side = process.argv[2] === "server" ? "server" : "client";
const pairs = Number(process.argv[3] ?? 6);
const storage: AsyncLocalStorage<{ readonly trace: string | undefined }> = new AsyncLocalStorage();
const plain = http2Contender(undefined);
const scoped = http2Contender(storage);
const children: BenchChild[] = [];
const closers: (() => Promise<void>)[] = [];

async function readyChild(label: string, script: string, args: string[]): Promise<[BenchChild, number]> {
  const child = startBenchChild(label, script, args);
  children.push(child);
  const ready = await child.next(60_000);
  if (ready.type !== "ready") throw new Error(`triple-als-tax: ${label} failed: ${JSON.stringify(ready)}`);
  return [child, ready.port];
}

/** This process's plain and scoped clients, both on one plain echo server in a child. */
async function clientRounds(): Promise<[Round, Round]> {
  const [, port] = await readyChild("http2 server", "e2e-server.ts", ["http2"]);
  const rounds: Round[] = [];
  for (const contender of [plain, scoped]) {
    const client = await contender.connect(port);
    closers.push(() => client.close());
    rounds.push(closedLoopRound((n) => client.echoText(textFor(n), traceFor(n)), CONCURRENCY));
  }
  return [rounds[0]!, rounds[1]!];
}

/** This process's plain and scoped servers, each with a client child of its own. */
async function serverRounds(): Promise<[Round, Round]> {
  const rounds: Round[] = [];
  for (const contender of [plain, scoped]) {
    const server = await contender.startServer();
    closers.push(() => server.close());
    const [client] = await readyChild("http2 client", "e2e-client.ts", ["http2", String(server.port)]);
    rounds.push(childClientRound(client, "text", CONCURRENCY));
  }
  return [rounds[0]!, rounds[1]!];
}

function median(costs: readonly RoundCost[], of: (cost: RoundCost) => number): number {
  const sorted = costs.map(of).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

try {
  const [plainRound, scopedRound] = side === "client" ? await clientRounds() : await serverRounds();
  const scopedOnce = async (durationMs: number) => {
    try {
      return await scopedRound(durationMs);
    } finally {
      storage.disable();
    }
  };
  await plainRound(ROUND_MS);
  await scopedOnce(ROUND_MS);
  const costs: [RoundCost[], RoundCost[]] = [[], []];
  for (let i = 0; i < pairs; i++) {
    // Alternate who goes first, so a drift within a pair does not favour one.
    const order = i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const which of order)
      costs[which].push(await meterRound(which === 0 ? plainRound : scopedOnce, ROUND_MS));
  }
  for (const [label, rounds] of [
    ["plain", costs[0]],
    ["scoped", costs[1]],
  ] as const) {
    const cpu = median(rounds, (c) => c.cpuMicrosPerCall);
    const bytes = median(rounds, (c) => c.bytesPerCall);
    process.stdout.write(
      `http2 ${side} ${label.padEnd(6)} median ${cpu.toFixed(0)} µs ${(bytes / 1024).toFixed(2)} KB: ${rounds.map(describeRoundCost).join(" | ")}\n`,
    );
  }
  const ratios = costs[1]
    .map((c, i) => c.cpuMicrosPerCall / costs[0][i]!.cpuMicrosPerCall)
    .sort((a, b) => a - b);
  process.stdout.write(
    `scoped / plain CPU per call, pair by pair: ${ratios.map((r) => r.toFixed(2)).join(" ")}\n`,
  );
} finally {
  for (const close of closers) await close();
  for (const child of children) await child.stop();
}
