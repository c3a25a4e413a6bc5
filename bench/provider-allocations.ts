/**
 * What one provider call costs in heap bytes and promises, on the provider bench's traffic: the
 * bench's dubbo-ts provider (public API, compiled package) runs in this process, and a raw socket
 * sends it the same captured, all-different request frames (bench/provider/capture.ts) in a closed
 * loop. V8's sampling heap profiler (collected objects counted too) gives the bytes per call by
 * allocating function; async_hooks counts the promises a call creates. Both hold still on a loaded
 * machine where timings do not, so run it before and after a provider hot-path change:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/provider-allocations.ts
 * [text|user] [concurrency] [top]`.
 */
import { createHook } from "node:async_hooks";
import { Session } from "node:inspector/promises";
import { connect } from "node:net";
import { startNamedServer } from "./e2e/servers.js";
import { requireCompiledPackage, type WorkloadName } from "./e2e/workloads.js";
import { sampleAllocations } from "./heap-sampling.js";
import { captureRequestFrames } from "./provider/capture.js";
import { createDubboFrameReader } from "./provider/dubbo-frames.js";

const WARMUP_CALLS = 20_000;
const CALLS = 40_000;
/** Bytes between samples: small, so a few bytes per call still show. */
const SAMPLING_INTERVAL = 64;
const workload: WorkloadName = process.argv[2] === "text" ? "text" : "user";
const concurrency = Number(process.argv[3] ?? 64);
const top = Number(process.argv[4] ?? 20);

requireCompiledPackage();
const frames = await captureRequestFrames(workload, 4096);
const server = await startNamedServer("dubbo-ts");
const socket = connect({ port: server.port, host: "127.0.0.1", noDelay: true });
await new Promise<void>((resolve, reject) => {
  socket.once("connect", resolve);
  socket.once("error", reject);
});
const pending = new Map<number, () => void>();
socket.on(
  "data",
  createDubboFrameReader((frame) => {
    const id = frame.readUInt32BE(8);
    pending.get(id)?.();
    pending.delete(id);
  }),
);
let nextId = 0;
const call = (n: number): Promise<void> =>
  new Promise((done) => {
    const frame = frames[n % frames.length]!;
    nextId = (nextId + 1) >>> 0;
    frame.writeUInt32BE(nextId, 8);
    pending.set(nextId, done);
    socket.write(frame);
  });

/** `calls` calls, `concurrency` at a time, each worker sending its next call when one answers. */
async function run(calls: number): Promise<void> {
  let n = 0;
  const worker = async (): Promise<void> => {
    while (n < calls) await call(n++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

const session = new Session();
session.connect();
try {
  await run(WARMUP_CALLS);
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") promises++;
    },
  });
  hook.enable();
  await run(CALLS / 4);
  hook.disable();
  // The load generator's own: one per call and one per worker await.
  const promisesPerCall = promises / (CALLS / 4);
  const bySite = await sampleAllocations(session, SAMPLING_INTERVAL, () => run(CALLS));
  let total = 0;
  for (const bytes of bySite.values()) total += bytes;
  console.log(
    `${workload}, concurrency ${concurrency}: ${Math.round(total / CALLS)} B/call in this process ` +
      `(provider and load generator), ${promisesPerCall.toFixed(1)} promises/call (2 of them the load generator's)`,
  );
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${String(Math.round(bytes / CALLS)).padStart(6)} B/call  ${site}`);
} finally {
  session.disconnect();
  socket.destroy();
  await server.close();
}
