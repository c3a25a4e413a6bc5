// A raw node:net server on a free loopback port that writes every frame back as it came, one write
// per frame. `frameReader` splits the stream; Node never reuses a received chunk, so a frame can be
// written back without a copy.
import type { Http2Server } from "node:http2";
import { createServer, type Server, type Socket } from "node:net";
import type { EchoServer } from "./workloads.js";

type FrameReader = (onFrame: (frame: Buffer) => void) => (chunk: Buffer) => void;

export function startRawEchoServer(frameReader: FrameReader): Promise<EchoServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.on(
      "data",
      frameReader((frame) => {
        socket.write(frame);
      }),
    );
  });
  return listenOnFreePort(server, () => {
    for (const s of sockets) s.destroy();
  });
}

/** Listens on a free loopback port; `close` drops the open connections (`dropAll`), then closes. */
export function listenOnFreePort(server: Server | Http2Server, dropAll: () => void): Promise<EchoServer> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        close: () =>
          new Promise<void>((done) => {
            dropAll();
            server.close(() => done());
          }),
      });
    });
  });
}
