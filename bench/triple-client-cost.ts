/**
 * One contender's client alone: its server in a child process, the client in this one, 64 calls in
 * flight on one connection, the 1 KB string (or small object) workload, CPU and heap allocated per
 * call of this process only, for three rounds after a warm-up. The client's share of the Triple
 * bench's cost without the server's in the same figures; add `--cpu-prof` to profile it, or `--heap`
 * for one more round under V8's sampling heap profiler and the bytes per call of the largest
 * allocation sites. Run against the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/triple-client-cost.ts [tri|grpc-js|http2|http2-als] [text|user] [--heap]`.
 */
import { Session } from "node:inspector/promises";
import { startBenchChild } from "./e2e/child.js";
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import { closedLoopRound, costPerCallRounds } from "./e2e/cost-rounds.js";
import { requireCompiledPackage, textFor, traceFor, userFor } from "./e2e/workloads.js";
import { describeAllocationSites, sampleAllocations } from "./heap-sampling.js";

const CONCURRENCY = 64;
const ROUND_MS = Number(process.env.ROUND_MS ?? 2000);

requireCompiledPackage();
const name = parseContenderName(process.argv[2] ?? "tri");
const workload = process.argv[3] === "user" ? "user" : "text";
const server = startBenchChild(`${name} server`, "e2e-server.ts", [name]);
try {
  const ready = await server.next(30_000);
  if (ready.type !== "ready") throw new Error(`${name} server: ${JSON.stringify(ready)}`);
  const client = await (await loadContender(name)).connect(ready.port);
  const call =
    workload === "text"
      ? (n: number) => client.echoText(textFor(n), traceFor(n))
      : (n: number) => client.echoUser(userFor(n), traceFor(n));
  const round = closedLoopRound(call, CONCURRENCY);
  const rounds = await costPerCallRounds(round, ROUND_MS);
  process.stdout.write(`${name} ${workload}, client per call (CPU, allocated): ${rounds}\n`);
  if (process.argv.includes("--heap")) {
    const inspector = new Session();
    inspector.connect();
    let calls = 0;
    const sites = await sampleAllocations(inspector, 512, async () => {
      calls = await round(ROUND_MS);
    });
    inspector.disconnect();
    process.stdout.write(describeAllocationSites(sites, calls));
  }
  await client.close();
} finally {
  await server.stop();
}
