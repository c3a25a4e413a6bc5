// The idle-connections scale bench, one process (run by idle-connections.ts with --expose-gc): a
// provider and a consumer application, the consumer holding N dedicated connections to it
// (`connections=N`), heartbeats every 2 s on both sides, nothing else sent. Prints one JSON
// line: the heap both ends hold per connection once they are up, and again after heartbeats ran.
//   node --expose-gc --import tsx bench/scale/idle-connections-child.ts <N>
import { setTimeout as sleep } from "node:timers/promises";
import { createDubbo, defineService, java, silentLogger } from "../../src/index.js";

const count = Number(process.argv[2] ?? 5000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("idle-connections-child.ts needs node --expose-gc");
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const HEARTBEAT_MS = 2000;

const Idle = defineService("org.apache.dubbo.bench.IdleService", {
  ping: { args: [], returns: java.String },
});
const provider = await createDubbo({
  application: { name: "idle-provider" },
  protocol: { name: "dubbo", host: "127.0.0.1", port: 0, heartbeatMs: HEARTBEAT_MS },
  env: false,
  logger: silentLogger,
});
const exported = await provider.export(Idle, { ping: () => "pong" }, { scope: "remote" });
const port = exported.urls[0]!.port;
const consumer = await createDubbo({
  application: { name: "idle-consumer" },
  env: false,
  logger: silentLogger,
});
const before = heap();
const stub = await consumer.refer(Idle, {
  url: `dubbo://127.0.0.1:${port}?connections=${count}&heartbeat=${HEARTBEAT_MS}`,
  timeoutMs: 30_000,
});
const t0 = performance.now();
await stub.ping();
const connectedMs = performance.now() - t0;
const up = heap();
await sleep(HEARTBEAT_MS * 3);
const afterHeartbeats = heap();
console.log(
  JSON.stringify({
    count,
    connectedMs,
    perConnectionUp: (up - before) / count,
    perConnectionAfterHeartbeats: (afterHeartbeats - before) / count,
  }),
);
await consumer.stop();
await provider.stop();
