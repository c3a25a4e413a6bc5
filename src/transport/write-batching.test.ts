import assert from "node:assert/strict";
import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { describe, it } from "node:test";
import { dubboFramer } from "../protocol/dubbo/framing/index.js";
import { waitFor } from "../testing/index.js";
import { createChannel } from "./channel.js";

function frame(id: number, bodyLength = 4): Buffer {
  const h = Buffer.alloc(16 + bodyLength);
  h.writeUInt16BE(0xdabb, 0);
  h[2] = 0xc2;
  h.writeBigInt64BE(BigInt(id), 4);
  h.writeInt32BE(bodyLength, 12);
  return h;
}

/** Counts what the socket hands to the kernel: one `_write` or `_writev` is one syscall. */
interface WriteCounts {
  writes: number;
  writevs: number;
}

function countWrites(socket: Socket): WriteCounts {
  const counts = { writes: 0, writevs: 0 };
  const raw = socket as unknown as Record<"_write" | "_writev", (...args: unknown[]) => void>;
  const write = raw._write.bind(socket);
  const writev = raw._writev.bind(socket);
  raw._write = (...args) => {
    counts.writes += 1;
    write(...args);
  };
  raw._writev = (...args) => {
    counts.writevs += 1;
    writev(...args);
  };
  return counts;
}

/**
 * A server channel answering every frame in a microtask (as the exchange answers a request's
 * promise), a raw client, and the counts of the server socket's writes. `onAnswer` sees the counts
 * right after each answer was handed to the channel.
 */
async function echoPair(onAnswer: (counts: WriteCounts) => void = () => {}) {
  let counts: WriteCounts = { writes: 0, writevs: 0 };
  const server = createServer((socket) => {
    counts = countWrites(socket);
    createChannel(
      socket,
      {
        frame: (ch, f) => {
          const answer = Buffer.from(f);
          queueMicrotask(() => {
            ch.sendFrame(answer);
            onAnswer(counts);
          });
        },
        oversize() {},
        garbage() {},
        closed() {},
      },
      { payloadLimit: 1 << 20, sendQueueLimit: 1 << 20, framer: dubboFramer },
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const client = connect({ port: (server.address() as AddressInfo).port, host: "127.0.0.1", noDelay: true });
  await once(client, "connect");
  let received = 0;
  client.on("data", (chunk: Buffer) => {
    received += chunk.length;
  });
  return {
    counts: () => counts,
    received: () => received,
    client,
    async close() {
      client.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

describe("transport write batching", () => {
  it("transport - the answers after a tick's first one leave in one writev, even past the socket's 16 KiB high-water mark", async () => {
    const pair = await echoPair();
    const frames = Array.from({ length: 30 }, (_, i) => frame(i, 1024));
    try {
      pair.client.write(Buffer.concat(frames));
      await waitFor("thirty answers", () => pair.received() === 30 * (16 + 1024), 3000);
      // The first answer goes at once (the peer starts on it while the rest are made), the other
      // 29 (29 KiB, past the high-water mark) together.
      assert.deepEqual(pair.counts(), { writes: 1, writevs: 1 });
    } finally {
      await pair.close();
    }
  });

  it("transport - the answer to a lone frame goes to the socket at once, not at the end of the tick", async () => {
    const seen: WriteCounts[] = [];
    const pair = await echoPair((counts) => seen.push({ ...counts }));
    try {
      pair.client.write(frame(1));
      await waitFor("the answer", () => pair.received() === 20, 3000);
      assert.deepEqual(seen, [{ writes: 1, writevs: 0 }]);
    } finally {
      await pair.close();
    }
  });
});
