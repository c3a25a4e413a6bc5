// Writes the seed inputs of test/fuzz/corpus/ (run once; the files are kept in the repository):
// real Dubbo 2 request, response and heartbeat frames as our codec writes them, and Hessian 2
// values of every kind the reader knows. `node --import tsx test/fuzz/seed-corpus.ts`
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { java } from "../../src/core/index.js";
import { encodeHeader, FLAG_EVENT, FLAG_REQUEST } from "../../src/protocol/dubbo/exchange/header.js";
import { encodeHessian, Hessian2Writer, javaObject } from "../../src/serialize/hessian2/index.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const HESSIAN2_ID = 2;
const TWO_WAY = 0x40;

function save(target: string, input: Buffer): void {
  mkdirSync(`${HERE}corpus/${target}`, { recursive: true });
  writeFileSync(
    `${HERE}corpus/${target}/seed-${createHash("sha1").update(input).digest("hex").slice(0, 12)}`,
    input,
  );
}

const shared = { name: "shared" };
const values: Array<[unknown, Parameters<typeof encodeHessian>[1]?]> = [
  [null],
  [true],
  [0],
  [-17],
  [1_000_000],
  [2n ** 40n, java.long],
  [3.25],
  ["hello"],
  ["ü€𝄞".repeat(3)],
  ["x".repeat(1200)],
  [new Date(1_700_000_000_000)],
  [new Uint8Array([1, 2, 3, 250])],
  [[1, "two", null, [3]]],
  [
    new Map<unknown, unknown>([
      ["a", 1],
      [2, "b"],
    ]),
  ],
  [["s", "t"], java.List(java.String)],
  [javaObject("com.example.User", { id: 7, name: "ann", tags: ["a"] })],
  [[shared, shared, [shared]]],
];
for (const [value, type] of values) save("hessian2-reader", encodeHessian(value, type));

function requestFrame(method: string, descriptor: string, args: unknown[]): Buffer {
  const writer = new Hessian2Writer();
  for (const field of ["2.0.2", "demo.SoakService", "0.0.0", method, descriptor]) writer.writeValue(field);
  for (const arg of args) writer.writeValue(arg);
  writer.writeValue({ path: "demo.SoakService", interface: "demo.SoakService", timeout: "1000" });
  const body = writer.toBuffer();
  return Buffer.concat([encodeHeader(FLAG_REQUEST | TWO_WAY | HESSIAN2_ID, 0, 42n, body.length), body]);
}
const response = encodeHessian(["ok"]);
const heartbeat = encodeHessian(null);
const frames = [
  requestFrame("echo", "Ljava/lang/String;", ["hello"]),
  requestFrame("slow", "I", [300]),
  requestFrame("$invoke", "Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/Object;", [
    "echo",
    ["java.lang.String"],
    ["x"],
  ]),
  Buffer.concat([encodeHeader(HESSIAN2_ID, 20, 42n, response.length), response]),
  Buffer.concat([
    encodeHeader(FLAG_REQUEST | TWO_WAY | FLAG_EVENT | HESSIAN2_ID, 0, 7n, heartbeat.length),
    heartbeat,
  ]),
];
// The framer's target reads its first byte as the chunk size, then the stream: one frame, and two
// frames back to back.
for (const frame of frames) save("frame-decoder", Buffer.concat([Buffer.from([7]), frame]));
save(
  "frame-decoder",
  Buffer.concat([Buffer.from([3]), frames[0] ?? Buffer.alloc(0), frames[1] ?? Buffer.alloc(0)]),
);
