/**
 * The async work one Triple unary call makes, by async_hooks resource type (PROMISE, TickObject,
 * HTTP2STREAM, Immediate, …), in the consumer or in the provider: each is an `init` that
 * `AsyncLocalStorage`'s hooks (on whenever an `RpcContext` is in use) run for, and a count that
 * holds still on a loaded machine where CPU time per call does not. The measured side runs in this
 * process, the other side in its own (bench/e2e-server.ts or bench/e2e-client.ts), 64 calls in
 * flight on one connection, the 1 KB string workload. Run against the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/triple-async-work.ts
 * [tri|grpc-js|http2] [client|server]`.
 */
import { createHook } from "node:async_hooks";
import { type BenchChild, startBenchChild } from "./e2e/child.js";
import { runClosedLoop } from "./e2e/closed-loop.js";
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import type { ChildMessage } from "./e2e/messages.js";
import { requireCompiledPackage, textFor, traceFor } from "./e2e/workloads.js";

const CONCURRENCY = 64;
const WARMUP_MS = 1500;
const MEASURED_MS = 2000;

function counting(): { stop(): Map<string, number> } {
  const counts = new Map<string, number>();
  const hook = createHook({
    init(_id, type) {
      counts.set(type, (counts.get(type) ?? 0) + 1);
    },
  });
  hook.enable();
  return {
    stop() {
      hook.disable();
      return counts;
    },
  };
}

function answerOf(message: ChildMessage): ChildMessage {
  if (message.type === "error")
    throw new Error(`triple-async-work: the other side failed:\n${message.message}`);
  return message;
}

async function measureClient(
  name: ReturnType<typeof parseContenderName>,
): Promise<[Map<string, number>, number]> {
  const server = startBenchChild(`${name} server`, "e2e-server.ts", [name]);
  try {
    const ready = answerOf(await server.next(60_000));
    if (ready.type !== "ready") throw new Error(`triple-async-work: the server answered ${ready.type}`);
    const client = await (await loadContender(name)).connect(ready.port);
    const call = (n: number) => client.echoText(textFor(n), traceFor(n));
    await runClosedLoop(call, CONCURRENCY, WARMUP_MS);
    const counter = counting();
    const stats = await runClosedLoop(call, CONCURRENCY, MEASURED_MS);
    const counts = counter.stop();
    await client.close();
    return [counts, stats.calls];
  } finally {
    await server.stop();
  }
}

async function measureServer(
  name: ReturnType<typeof parseContenderName>,
): Promise<[Map<string, number>, number]> {
  const server = await (await loadContender(name)).startServer();
  let client: BenchChild | undefined;
  try {
    client = startBenchChild(`${name} client`, "e2e-client.ts", [name, String(server.port)]);
    answerOf(await client.next(60_000));
    const cell = (durationMs: number) =>
      ({ type: "run", workload: "text", concurrency: CONCURRENCY, durationMs }) as const;
    answerOf(await client.ask(cell(WARMUP_MS), 60_000));
    const counter = counting();
    const result = answerOf(await client.ask(cell(MEASURED_MS), 60_000));
    const counts = counter.stop();
    if (result.type !== "result") throw new Error(`triple-async-work: the client answered ${result.type}`);
    return [counts, result.stats.calls];
  } finally {
    await client?.stop();
    await server.close();
  }
}

requireCompiledPackage();
const name = parseContenderName(process.argv[2] ?? "tri");
const side = process.argv[3] ?? "client";
if (side !== "client" && side !== "server")
  throw new Error(`triple-async-work: side "${side}" is not client or server`);
const [counts, calls] = await (side === "client" ? measureClient(name) : measureServer(name));
const rows = [...counts].sort((a, b) => b[1] - a[1]);
const total = rows.reduce((sum, [, n]) => sum + n, 0);
process.stdout.write(
  `${name} ${side}: ${calls} calls, ${(total / calls).toFixed(2)} async inits per call: ` +
    `${rows.map(([type, n]) => `${type} ${(n / calls).toFixed(2)}`).join(", ")}\n`,
);
