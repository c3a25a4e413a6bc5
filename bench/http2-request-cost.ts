/**
 * What node:http2's `ClientHttp2Session.request()` costs by itself with each way of passing a
 * Triple call's headers: the CPU time (`process.cpuUsage`, so the machine's other jobs do not count) inside `request()` (which maps the headers, makes the
 * stream and submits it to nghttp2), per call, 64 streams at a time against a server answering
 * trailers-only. Variants: the header object as the Triple invoker builds it, the same with
 * `:scheme`/`:authority` left for node to fill from the session, a null-prototype object, and
 * the object with `sensitiveHeaders` (`http2.sensitiveHeaders`) naming one header. Node 20's
 * `request()` takes an object only (an array of name/value pairs throws ERR_INVALID_ARG_TYPE).
 * Run: `npx tsx bench/http2-request-cost.ts`.
 */
import { connect, createServer, type OutgoingHttpHeaders, sensitiveHeaders } from "node:http2";
import type { AddressInfo } from "node:net";

const BATCH = 64;
const BATCHES = Number(process.env.BATCHES ?? 100);

const server = createServer();
server.on("stream", (stream) => {
  stream.on("data", () => {});
  stream.on("end", () => stream.respond({ ":status": 200, "grpc-status": "0" }, { endStream: true }));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = (server.address() as AddressInfo).port;
const session = connect(`http://127.0.0.1:${port}`);
await new Promise((resolve) => session.once("connect", resolve));

const BASE = Object.freeze({
  "content-type": "application/grpc+proto",
  te: "trailers",
  "grpc-accept-encoding": "identity,gzip",
  "tri-consumer-appname": "bench-consumer",
});
const PATH = "/org.apache.dubbo.bench.EchoService/echoText";
const PAYLOAD = Buffer.alloc(1100);

/** The invoker's header object, with `pseudo` as its pseudo-headers and `extra` after the rest. */
function headers(
  pseudo: OutgoingHttpHeaders,
  n: number,
  extra: OutgoingHttpHeaders = {},
): OutgoingHttpHeaders {
  return { ...pseudo, ...BASE, "grpc-timeout": "5000m", trace: `t${n}`, ...extra };
}
const ALL_PSEUDO = { ":method": "POST", ":scheme": "http", ":authority": `127.0.0.1:${port}`, ":path": PATH };

const variants: Record<string, (n: number) => OutgoingHttpHeaders> = {
  "object as the invoker builds it": (n) => headers(ALL_PSEUDO, n),
  "without :scheme and :authority": (n) => headers({ ":method": "POST", ":path": PATH }, n),
  "null-prototype object": (n) => Object.assign(Object.create(null), headers(ALL_PSEUDO, n)),
  "object with sensitiveHeaders": (n) => headers(ALL_PSEUDO, n, { [sensitiveHeaders]: ["trace"] }),
};

async function measure(build: (n: number) => OutgoingHttpHeaders): Promise<number> {
  let inside = 0;
  let n = 0;
  for (let b = 0; b < BATCHES; b++) {
    const closed: Promise<void>[] = [];
    for (let i = 0; i < BATCH; i++) {
      const headers = build(n++);
      const started = process.cpuUsage();
      const stream = session.request(headers);
      const spent = process.cpuUsage(started);
      inside += spent.user + spent.system;
      stream.on("data", () => {});
      closed.push(new Promise((resolve) => stream.on("close", resolve)));
      stream.end(PAYLOAD);
    }
    await Promise.all(closed);
  }
  return inside / n;
}

try {
  // A warm-up pass, then five interleaved passes (so a burst of load falls on every variant); the median is printed.
  const figures = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]));
  for (let pass = 0; pass < 6; pass++) {
    for (const [name, build] of Object.entries(variants)) {
      const micros = await measure(build);
      if (pass > 0) figures.get(name)!.push(micros);
    }
  }
  for (const [name, runs] of figures) {
    const median = runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    process.stdout.write(`${name}: ${median.toFixed(1)} µs of CPU inside request() per call (median of 5)\n`);
  }
} finally {
  session.destroy();
  server.close();
}
