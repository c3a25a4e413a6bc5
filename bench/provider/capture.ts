// Pre-built, all-different request frames, as our consumer writes them: a dubbo-ts reference (the
// public API) calls a capturing server that records each frame and never answers; once enough
// frames are in, the calls are aborted. Each frame has its own argument bytes and `trace`.
import { setMaxListeners } from "node:events";
import { createDubbo, runWithRpcContext, silentLogger, withCallOptions } from "dubbo-ts";
import { startRawEchoServer } from "../e2e/raw-echo-server.js";
import { EchoService, textFor, traceFor, userFor, type WorkloadName } from "../e2e/workloads.js";
import { createDubboFrameReader } from "./dubbo-frames.js";

const quiet = silentLogger;

export async function captureRequestFrames(workload: WorkloadName, count: number): Promise<Buffer[]> {
  const frames: Buffer[] = [];
  let enough: () => void = () => {};
  const allIn = new Promise<void>((resolve) => {
    enough = resolve;
  });
  const capture = await startRawEchoServer((_echo) =>
    createDubboFrameReader((frame) => {
      if (frames.length < count) frames.push(Buffer.from(frame));
      if (frames.length === count) enough();
    }),
  );
  const app = await createDubbo({ application: { name: "bench-capture" }, env: false, logger: quiet });
  try {
    const controller = new AbortController();
    // Every one of the `count` pending calls listens on this one signal twice: the stub races it,
    // and the exchange's pending entry frees itself on it.
    setMaxListeners(2 * count + 1, controller.signal);
    const stub = withCallOptions(
      await app.refer(EchoService, { url: `dubbo://127.0.0.1:${capture.port}`, timeoutMs: 60_000 }),
      { signal: controller.signal },
    );
    const calls = Array.from({ length: count }, (_, n) =>
      runWithRpcContext((context) => {
        context.setAttachment("trace", traceFor(n));
        return workload === "text" ? stub.echoText(textFor(n)) : stub.echoUser(userFor(n));
      }).catch(() => undefined),
    );
    await allIn;
    controller.abort();
    await Promise.all(calls);
  } finally {
    await app.stop();
    await capture.close();
  }
  return frames;
}
