/**
 * The provider-side load generator, run as its own process by bench/provider.ts:
 * `node --import tsx bench/provider-client.ts <dubbo-ts|dubbo-js|ping-pong> <port>`. Sends
 * pre-built, all-different request frames (a fresh request id stamped into each send) over one
 * raw connection in a closed loop, so the figures are the provider's cost, not a consumer's.
 */
import { connect } from "node:net";
import { runClosedLoop } from "./e2e/closed-loop.js";
import { startCostMeter } from "./e2e/measure.js";
import type { ChildMessage, RunCell } from "./e2e/messages.js";
import { parseServerName } from "./e2e/servers.js";
import type { WorkloadName } from "./e2e/workloads.js";
import { captureRequestFrames } from "./provider/capture.js";
import { createDubboFrameReader } from "./provider/dubbo-frames.js";

/** Distinct frames per workload: far more than any provider-side cache holds. */
const DISTINCT_FRAMES = 4096;
const STATUS_OK = 20;
/** Hessian ints 0 and 3: the body of a response holding an exception (without/with attachments). */
const EXCEPTION_MARKERS = new Set([0x90, 0x93]);

function send(message: ChildMessage): void {
  process.send?.(message);
}

const server = parseServerName(process.argv[2]);
const port = Number(process.argv[3]);
// The ping-pong ceiling returns the request itself; a provider must answer OK with a value.
const echoesRequests = server === "ping-pong";

function failure(frame: Buffer): string | undefined {
  if (echoesRequests) return undefined;
  if (frame[3] !== STATUS_OK) return `status ${frame[3]}`;
  if (EXCEPTION_MARKERS.has(frame[16]!)) return "an exception";
  return undefined;
}

try {
  const frames: Record<WorkloadName, Buffer[]> = {
    text: await captureRequestFrames("text", DISTINCT_FRAMES),
    user: await captureRequestFrames("user", DISTINCT_FRAMES),
  };
  const socket = connect({ port, host: "127.0.0.1", noDelay: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const pending = new Map<number, () => void>();
  let firstFailure: string | undefined;
  socket.on(
    "data",
    createDubboFrameReader((frame) => {
      const id = frame.readUInt32BE(8);
      const done = pending.get(id);
      if (done === undefined) return;
      firstFailure ??= failure(frame);
      pending.delete(id);
      done();
    }),
  );
  let nextId = 0;
  const callFor =
    (list: readonly Buffer[]) =>
    (n: number): Promise<void> =>
      new Promise((done) => {
        const frame = list[n % list.length]!;
        nextId = (nextId + 1) >>> 0;
        // Safe to stamp in place: a frame comes round again only long after its answer arrived.
        frame.writeUInt32BE(0, 4);
        frame.writeUInt32BE(nextId, 8);
        pending.set(nextId, done);
        socket.write(frame);
      });
  const run = async (cell: RunCell): Promise<ChildMessage> => {
    const meter = startCostMeter();
    const stats = await runClosedLoop(callFor(frames[cell.workload]), cell.concurrency, cell.durationMs);
    if (firstFailure !== undefined)
      throw new Error(`provider bench: ${server} answered with ${firstFailure}`);
    return { type: "result", stats, cost: meter.stop() };
  };
  // One call of each workload first: a fast wrong answer must not count.
  await callFor(frames.text)(0);
  await callFor(frames.user)(0);
  if (firstFailure !== undefined) throw new Error(`provider bench: ${server} answered with ${firstFailure}`);
  process.on("message", (cell: RunCell) => {
    run(cell)
      .then(send)
      .catch((error: unknown) => send({ type: "error", message: String((error as Error)?.stack ?? error) }));
  });
  process.on("disconnect", () => {
    socket.destroy();
    process.exit(0);
  });
  send({ type: "ready", port });
} catch (error) {
  send({ type: "error", message: String((error as Error)?.stack ?? error) });
  process.exit(1);
}
