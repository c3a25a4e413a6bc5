// What receiving one 4 MB reply over loopback costs the reading process (a `getChildren` of
// 10 000 provider nodes is that size): `'data'` events, each a fresh 64 KiB chunk as
// node-zookeeper-client's socket gives them, against `net.connect({ onread })` into a reused
// buffer, alone and with each read copied into a 4 MB frame buffer the reader owns. Prints the
// median CPU per reply of each, three rounds, alternating.
//   node --import tsx bench/scale/socket-read.ts
import { fork } from "node:child_process";
import { type AddressInfo, connect, createServer, type NetConnectOpts } from "node:net";
import { fileURLToPath } from "node:url";

const SIZE = 4 * 1024 * 1024;
const READS = 41;
const MODES = ["data", "onread", "onread-copy"] as const;

if (process.argv[2] === "server") {
  const body = Buffer.alloc(SIZE, 7);
  const server = createServer((socket) => {
    socket.setNoDelay();
    socket.on("data", () => socket.write(body));
  });
  server.listen(0, "127.0.0.1", () => process.send?.((server.address() as AddressInfo).port));
} else {
  const child = fork(fileURLToPath(import.meta.url), ["server"]);
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(m as number)));
  for (let round = 0; round < 3; round++) {
    for (const mode of MODES)
      console.log(`${mode}: ${(await medianCpuMs(port, mode)).toFixed(2)} ms CPU per 4 MB`);
  }
  child.kill();
}

async function medianCpuMs(port: number, mode: (typeof MODES)[number]): Promise<number> {
  let received = 0;
  let done = (): void => {};
  const count = (bytes: number): void => {
    received += bytes;
    if (received >= SIZE) {
      received = 0;
      done();
    }
  };
  const frame = mode === "onread-copy" ? Buffer.allocUnsafe(SIZE) : undefined;
  const options: NetConnectOpts = { port, host: "127.0.0.1" };
  if (mode !== "data") {
    options.onread = {
      buffer: Buffer.allocUnsafe(64 * 1024),
      callback: (bytes, buffer) => {
        frame?.set(buffer.subarray(0, bytes), received);
        count(bytes);
        return true;
      },
    };
  }
  const socket = connect(options);
  if (mode === "data") socket.on("data", (chunk: Buffer) => count(chunk.length));
  await new Promise((resolve) => socket.once("connect", resolve));
  const spent: number[] = [];
  for (let i = 0; i < READS; i++) {
    const replied = new Promise<void>((resolve) => {
      done = resolve;
    });
    const from = process.cpuUsage();
    socket.write("x");
    await replied;
    const used = process.cpuUsage(from);
    spent.push((used.user + used.system) / 1000);
  }
  socket.destroy();
  return spent.sort((a, b) => a - b)[READS >> 1] ?? Number.NaN;
}
