import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { after, describe, it } from "node:test";
import { ZkClient } from "./zk-client.js";

/** A connect response a ZooKeeper client accepts: protocol version, timeout, session id, password. */
function connectResponse(): Buffer {
  const body = Buffer.alloc(4 + 4 + 8 + 4 + 16);
  body.writeInt32BE(0, 0);
  body.writeInt32BE(4000, 4);
  body.writeBigInt64BE(0x1234n, 8);
  body.writeInt32BE(16, 16);
  return Buffer.concat([lengthOf(body), body]);
}

/** A reply header (xid, zxid, err) whose error code ZooKeeper never sends. */
function replyWithUnknownCode(xid: number): Buffer {
  const body = Buffer.alloc(4 + 8 + 4);
  body.writeInt32BE(xid, 0);
  body.writeBigInt64BE(1n, 4);
  body.writeInt32BE(-1304035328, 12);
  return Buffer.concat([lengthOf(body), body]);
}

function lengthOf(body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length, 0);
  return length;
}

describe("zk client", () => {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  after(() => {
    for (const s of sockets) s.destroy();
    server?.close();
  });

  it("zk client - an unreadable reply drops the link instead of crashing the process", async () => {
    let requests = 0;
    server = createServer((socket) => {
      sockets.add(socket);
      let connected = false;
      socket.on("data", (chunk) => {
        if (!connected) {
          connected = true;
          socket.write(connectResponse());
          return;
        }
        requests++;
        // Answer the first request (xid 1) with an error code the library cannot map.
        socket.write(replyWithUnknownCode(chunk.length >= 8 ? chunk.readInt32BE(4) : 1));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const badReplies: unknown[] = [];
    const client = new ZkClient({
      connectString: `127.0.0.1:${port}`,
      sessionTimeoutMs: 4000,
      operationTimeoutMs: 1000,
      onBadReply: (error) => badReplies.push(error),
    });
    try {
      await client.connect(3000);
      await assert.rejects(client.stat("/dubbo"));
      assert.ok(requests >= 1, "the request reached the fake server");
      assert.match(String(badReplies[0]), /Unknown code/);
    } finally {
      client.close();
    }
  });
});
