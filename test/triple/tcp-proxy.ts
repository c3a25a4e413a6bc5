// A raw TCP proxy on a free loopback port in front of a server. `pause()` makes the server look
// dead without closing anything: bytes in either direction are dropped (as a black-holed host or a
// half-open link drops them) while every socket stays open; `resume()` forwards again. It counts
// the bytes it forwards each way, so a test can see what crossed the wire (compression).
import { connect, createServer, type Socket } from "node:net";

export interface PausableProxy {
  readonly port: number;
  pause(): void;
  resume(): void;
  /** Connections accepted so far (a reconnect shows as one more). */
  readonly accepted: number;
  /** Bytes forwarded from clients to the server, and back. */
  readonly forwarded: { readonly toServer: number; readonly toClient: number };
  close(): Promise<void>;
}

export async function startPausableProxy(targetPort: number): Promise<PausableProxy> {
  let paused = false;
  let accepted = 0;
  const forwarded = { toServer: 0, toClient: 0 };
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const forward = (from: Socket, to: Socket, direction: keyof typeof forwarded): void => {
    from.on("data", (chunk: Buffer) => {
      if (paused) return;
      forwarded[direction] += chunk.length;
      to.write(chunk);
    });
    from.on("close", () => to.destroy());
  };
  const server = createServer((client) => {
    accepted++;
    const upstream = connect(targetPort, "127.0.0.1");
    track(client);
    track(upstream);
    forward(client, upstream, "toServer");
    forward(upstream, client, "toClient");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    get accepted() {
      return accepted;
    },
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
