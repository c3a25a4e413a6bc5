/**
 * One contender's server in this process, its own client in another (bench/e2e-client.ts), 64
 * calls in flight on one connection, the 1 KB string workload: the server's CPU and heap allocated
 * per call over three rounds after a warm-up, and with `--profile <file>` a CPU profile of the
 * measured rounds only (no start-up, no client), for `bench/profile-summary.ts`; with `--heap`, one
 * more round under V8's sampling heap profiler and the bytes per call of the largest allocation
 * sites. Run against the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/triple-server-cost.ts
 * [tri|grpc-js|http2|http2-als] [--profile <file>] [--heap]`.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { startBenchChild } from "./e2e/child.js";
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import { childClientRound, costPerCallRounds } from "./e2e/cost-rounds.js";
import { requireCompiledPackage } from "./e2e/workloads.js";
import { describeAllocationSites, sampleAllocations } from "./heap-sampling.js";

const CONCURRENCY = 64;
const ROUND_MS = 2000;

requireCompiledPackage();
const name = parseContenderName(process.argv[2] ?? "tri");
const profileAt = process.argv.indexOf("--profile");
const profileFile = profileAt < 0 ? undefined : process.argv[profileAt + 1];
const server = await (await loadContender(name)).startServer();
const client = startBenchChild(`${name} client`, "e2e-client.ts", [name, String(server.port)]);
const inspector = new Session();
try {
  const ready = await client.next(60_000);
  if (ready.type !== "ready")
    throw new Error(`triple-server-cost: the client failed: ${JSON.stringify(ready)}`);
  const round = childClientRound(client, "text", CONCURRENCY);
  const startProfile = async () => {
    inspector.connect();
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.start");
  };
  const rounds = await costPerCallRounds(round, ROUND_MS, {
    afterWarmUp: profileFile === undefined ? undefined : startProfile,
  });
  if (profileFile !== undefined) {
    const { profile } = await inspector.post("Profiler.stop");
    writeFileSync(profileFile, JSON.stringify(profile));
  }
  process.stdout.write(`${name} server per call (CPU, allocated): ${rounds}\n`);
  if (process.argv.includes("--heap")) {
    if (profileFile === undefined) inspector.connect();
    let calls = 0;
    const sites = await sampleAllocations(inspector, 512, async () => {
      calls = await round(ROUND_MS);
    });
    process.stdout.write(describeAllocationSites(sites, calls));
  }
} finally {
  inspector.disconnect();
  await client.stop();
  await server.close();
}
