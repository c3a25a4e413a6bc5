/**
 * One contender's server in this process, its own client in another (bench/e2e-client.ts), 64
 * calls in flight on one connection, the 1 KB string workload: the server's CPU and heap allocated
 * per call over three rounds after a warm-up, and with `--profile <file>` a CPU profile of the
 * measured rounds only (no start-up, no client), for `bench/profile-summary.ts`; with `--heap`, one
 * more round under V8's sampling heap profiler and the bytes per call of the largest allocation
 * sites. Run against the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/triple-server-cost.ts
 * [tri|grpc-js|http2] [--profile <file>] [--heap]`.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { startBenchChild } from "./e2e/child.js";
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import { startCostMeter } from "./e2e/measure.js";
import type { ChildMessage } from "./e2e/messages.js";
import { requireCompiledPackage } from "./e2e/workloads.js";
import { sampleAllocations } from "./heap-sampling.js";

const CONCURRENCY = 64;
const WARMUP_MS = 3000;
const ROUND_MS = 2000;

function answerOf(message: ChildMessage): ChildMessage {
  if (message.type === "error") throw new Error(`triple-server-cost: the client failed:\n${message.message}`);
  return message;
}

requireCompiledPackage();
const name = parseContenderName(process.argv[2] ?? "tri");
const profileAt = process.argv.indexOf("--profile");
const profileFile = profileAt < 0 ? undefined : process.argv[profileAt + 1];
const server = await (await loadContender(name)).startServer();
const client = startBenchChild(`${name} client`, "e2e-client.ts", [name, String(server.port)]);
const inspector = new Session();
try {
  answerOf(await client.next(60_000));
  const cell = (durationMs: number) =>
    ({ type: "run", workload: "text", concurrency: CONCURRENCY, durationMs }) as const;
  answerOf(await client.ask(cell(WARMUP_MS), 60_000));
  if (profileFile !== undefined) {
    inspector.connect();
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.start");
  }
  const rounds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const meter = startCostMeter();
    const result = answerOf(await client.ask(cell(ROUND_MS), 60_000));
    const cost = meter.stop();
    if (result.type !== "result") throw new Error(`triple-server-cost: the client answered ${result.type}`);
    const { calls } = result.stats;
    rounds.push(
      `${((cost.cpuMs * 1000) / calls).toFixed(0)} µs ${(cost.allocatedBytes / calls).toFixed(0)} B`,
    );
  }
  if (profileFile !== undefined) {
    const { profile } = await inspector.post("Profiler.stop");
    writeFileSync(profileFile, JSON.stringify(profile));
  }
  process.stdout.write(`${name} server per call (CPU, allocated): ${rounds.join(" | ")}\n`);
  if (process.argv.includes("--heap")) {
    if (profileFile === undefined) inspector.connect();
    let calls = 0;
    const sites = await sampleAllocations(inspector, 512, async () => {
      const result = answerOf(await client.ask(cell(ROUND_MS), 60_000));
      if (result.type === "result") calls = result.stats.calls;
    });
    for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 40))
      process.stdout.write(`${(bytes / calls).toFixed(0).padStart(7)} B  ${site}\n`);
  }
} finally {
  inspector.disconnect();
  await client.stop();
  await server.close();
}
