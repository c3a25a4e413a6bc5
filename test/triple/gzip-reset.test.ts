// A gzip request whose caller resets the stream while the provider is inflating it is not
// served: the implementation is not called and nothing is written to the closed stream. The
// window is made certain, not hoped for: zlib inflates on libuv's thread pool, so the test holds
// every pool thread in the open of a FIFO (which blocks until a writer opens it) from before the
// request until after the provider has seen the reset, then lets the inflation run.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { type ClientHttp2Session, connect, constants } from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { gzipSync } from "node:zlib";
import { createDubbo, createLogger, type DubboApplication, defineService, java } from "../../src/index.js";
import { encodeRequestWrapper } from "../../src/protocol/triple/wrapper-codec.js";
import { encodeHessian } from "../../src/serialize/index.js";
import { waitFor } from "../../src/testing/index.js";

const IFACE = "org.apache.dubbo.demo.GzipSink";
const Sink = defineService(IFACE, { take: { args: [java.String], returns: java.String } });
/** libuv's thread pool size, as the process was started with (Node's default is 4). */
const POOL_THREADS = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-gzip-reset-"));
const cleanups: Array<() => unknown> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** Holds every thread of libuv's pool until `release()`: each blocks opening a FIFO no one writes. */
function holdThreadPool(): { release(): Promise<void> } {
  const fifos = Array.from({ length: POOL_THREADS }, (_, i) => join(dir, `hold-${i}`));
  execFileSync("mkfifo", fifos);
  const readers: Promise<FileHandle>[] = fifos.map((fifo) => open(fifo, "r"));
  return {
    async release() {
      // Opened for writing on this thread (the pool is held): each returns once its reader is in open().
      for (const fifo of fifos) closeSync(openSync(fifo, "w"));
      for (const reader of await Promise.all(readers)) await reader.close();
    },
  };
}

/** A PING answered: the provider has processed every frame sent before it. */
function pingAcknowledged(session: ClientHttp2Session): Promise<void> {
  return new Promise((resolve, reject) => session.ping((error) => (error ? reject(error) : resolve())));
}

test("gzip reset - a request reset while it is inflated is not served and not answered", async () => {
  const debugLines: string[] = [];
  const ignore = (): void => {};
  const logger = createLogger({
    level: "debug",
    sink: {
      error: ignore,
      warn: ignore,
      info: ignore,
      trace: ignore,
      debug: (_, line) => void debugLines.push(line),
    },
  });
  const provider: DubboApplication = await createDubbo({
    application: { name: "gzip-reset-provider" },
    env: false,
    logger,
    protocol: { name: "tri", host: "127.0.0.1", port: 0 },
  });
  cleanups.push(() => provider.stop());
  const taken: string[] = [];
  const exported = await provider.export(
    Sink,
    {
      take: (text) => {
        taken.push(text);
        return "taken";
      },
    },
    { scope: "remote" },
  );
  const payload = encodeRequestWrapper({
    serializeType: "hessian4",
    args: [encodeHessian("z".repeat(1 << 20), java.String)],
    argTypes: ["java.lang.String"],
  });
  const zipped = gzipSync(payload);
  const message = Buffer.alloc(5 + zipped.length);
  message[0] = 1;
  message.writeUInt32BE(zipped.length, 1);
  message.set(zipped, 5);

  const session = connect(`http://${exported.urls[0]!.address}`);
  cleanups.push(() => session.destroy());
  await new Promise<void>((resolve) => session.once("connect", () => resolve()));
  const pool = holdThreadPool();
  const stream = session.request({
    ":method": "POST",
    ":path": `/${IFACE}/take`,
    "content-type": "application/grpc+proto",
    te: "trailers",
    "grpc-encoding": "gzip",
  });
  let answered = false;
  stream.on("response", () => (answered = true));
  stream.on("data", () => (answered = true));
  stream.on("error", () => {});
  await new Promise<void>((resolve) => stream.end(message, resolve));
  await pingAcknowledged(session); // the whole request is in: the provider is inflating it
  stream.close(constants.NGHTTP2_CANCEL);
  await pingAcknowledged(session); // the reset is in
  await pool.release();

  await waitFor(
    "the provider to serve the request or drop it",
    () => taken.length > 0 || debugLines.some((line) => /while its request was inflated/.test(line)),
  );
  assert.deepEqual(taken, [], "the implementation was called for a reset request");
  assert.equal(answered, false);
  assert.ok(
    debugLines.some(
      (line) =>
        line.includes(`${IFACE}/take`) &&
        /closed the stream while its request was inflated; not served/.test(line),
    ),
  );
});
