import type { Socket } from "node:net";
import { Code, RpcError } from "../core/index.js";
import type { Framer } from "./framer.js";

/** What a channel reports to the layer above. Called on the socket's I/O callback. */
export interface ChannelHandler {
  frame(channel: Channel, frame: Buffer): void;
  /** A received frame's body exceeded `payload`; its body was skipped (see `FrameSink.oversize`). */
  oversize(channel: Channel, header: Buffer, bodyLength: number): void;
  /** The peer sent bytes that are not frames of the channel's framer; the channel stops decoding. */
  garbage(channel: Channel, bytes: Buffer, reason: string): void;
  /** The socket closed, once. `error` is set when it closed on a failure. */
  closed(channel: Channel, error: Error | undefined): void;
}

export interface ChannelOptions {
  /** Largest frame body accepted or sent, bytes (`payload`). */
  readonly payloadLimit: number;
  /** Bytes that may wait for `drain` before `send` fails (the send queue bound). */
  readonly sendQueueLimit: number;
  /** How the protocol cuts the inbound bytes into frames. */
  readonly framer: Framer;
}

/** One TCP (or TLS) connection carrying one protocol's frames, in either role. */
export interface Channel {
  /** `host:port` of the peer, as given when the socket was opened. */
  readonly remoteAddress: string;
  readonly localAddress: string;
  /** `Date.now()` of the last bytes read or written, for idle detection. */
  readonly lastReadAt: number;
  readonly lastWriteAt: number;
  readonly isConnected: boolean;
  /** True while the socket refused more data and sends wait for `drain`. */
  readonly isBackpressured: boolean;
  /** Bytes waiting for `drain` in this channel's own queue. */
  readonly queuedBytes: number;
  readonly payloadLimit: number;
  /**
   * Writes one whole frame (header and body in one buffer), the fast path: one buffer, one
   * write. The first frame of a tick goes to the socket at once (no added latency for a lone call);
   * frames sent later in the same tick are corked and leave together in one `writev`. While the
   * socket is backpressured the frame waits for `drain`; beyond `sendQueueLimit` waiting bytes, or
   * for a body over `payload`, it throws an `RpcError`.
   */
  sendFrame(frame: Buffer): void;
  /** Like {@link sendFrame}, for a frame given as its header and its body (joined first). */
  send(header: Buffer, body: Buffer | undefined): void;
  /** Resolves when nothing waits in the send queue (at once if nothing does). */
  whenDrained(): Promise<void>;
  /** Flushes what is queued, then ends the connection. */
  close(): void;
  /** Ends the connection now. */
  destroy(error?: Error): void;
}

/**
 * Bytes one tick's corked batch may hold past the socket's high-water mark (16 KiB) before its
 * `false` counts as backpressure: a batch of answers is not a slow peer, and splitting it at 16 KiB
 * cost a writev and a `drain` turn per 16 answers of 1 KB.
 */
const TICK_BATCH_BYTES = 256 * 1024;

function formatAddress(host: string | undefined, port: number | undefined): string {
  if (host === undefined) return "unknown";
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

export function createChannel(
  socket: Socket,
  handler: ChannelHandler,
  options: ChannelOptions,
  remoteAddress = formatAddress(socket.remoteAddress, socket.remotePort),
): Channel {
  const localAddress = formatAddress(socket.localAddress, socket.localPort);
  const headerLength = options.framer.headerLength;
  let lastReadAt = Date.now();
  let lastWriteAt = lastReadAt;
  let connected = !socket.destroyed;
  let corked = false;
  /** A frame went out in this tick: later ones in the same tick are corked together. */
  let wroteThisTick = false;
  let blocked = false;
  let queue: Buffer[] = [];
  let queuedBytes = 0;
  let drainWaiters: Array<() => void> = [];
  let closing = false;
  let failure: Error | undefined;

  const endTick = (): void => {
    wroteThisTick = false;
    if (corked) {
      corked = false;
      socket.uncork();
      // What the kernel did not take of a batch let past the high-water mark waits for `drain`.
      if (socket.writableLength > 0) blocked = true;
    }
  };

  function write(buf: Buffer): void {
    if (!wroteThisTick) {
      wroteThisTick = true;
      process.nextTick(endTick);
    } else if (!corked) {
      corked = true;
      socket.cork();
    }
    if (!socket.write(buf) && (!corked || socket.writableLength > TICK_BATCH_BYTES)) blocked = true;
  }

  function sendFrame(frame: Buffer): void {
    if (!connected || closing) {
      throw new RpcError(`the connection to ${remoteAddress} is closed`, Code.Unavailable, {
        cause: failure,
      });
    }
    const bodyLength = frame.length - headerLength;
    if (bodyLength > options.payloadLimit) {
      throw new RpcError(
        `a frame body of ${bodyLength} bytes to ${remoteAddress} exceeds the payload limit of ` +
          `${options.payloadLimit} bytes (set \`payload\` to raise it)`,
        Code.InvalidArgument,
      );
    }
    lastWriteAt = Date.now();
    if (!blocked) {
      write(frame);
      return;
    }
    if (queuedBytes + frame.length > options.sendQueueLimit) {
      throw new RpcError(
        `the send queue to ${remoteAddress} is full: ${queuedBytes} bytes wait for the peer to read ` +
          `(limit ${options.sendQueueLimit} bytes, set \`sendqueue\`); the peer reads too slowly`,
        Code.ResourceExhausted,
      );
    }
    queue.push(frame);
    queuedBytes += frame.length;
  }

  function flushQueue(): void {
    blocked = false;
    let i = 0;
    while (i < queue.length && !blocked && connected) {
      const buf = queue[i]!;
      queuedBytes -= buf.length;
      i += 1;
      write(buf);
    }
    queue = i === queue.length ? [] : queue.slice(i);
    if (queue.length === 0) {
      queuedBytes = 0;
      const waiters = drainWaiters;
      drainWaiters = [];
      for (const w of waiters) w();
      if (closing) socket.end();
    }
  }

  const channel: Channel = {
    remoteAddress,
    localAddress,
    get lastReadAt() {
      return lastReadAt;
    },
    get lastWriteAt() {
      return lastWriteAt;
    },
    get isConnected() {
      return connected;
    },
    get isBackpressured() {
      return blocked;
    },
    get queuedBytes() {
      return queuedBytes;
    },
    payloadLimit: options.payloadLimit,
    sendFrame,
    send(header, body) {
      sendFrame(body === undefined || body.length === 0 ? header : Buffer.concat([header, body]));
    },
    whenDrained() {
      if (queue.length === 0 || !connected) return Promise.resolve();
      return new Promise((resolve) => drainWaiters.push(resolve));
    },
    close() {
      if (!connected || closing) return;
      closing = true;
      if (queue.length === 0) socket.end();
    },
    destroy(error) {
      if (error !== undefined && failure === undefined) failure = error;
      socket.destroy();
    },
  };

  const decoder = options.framer.createDecoder(options.payloadLimit, {
    frame: (frame) => handler.frame(channel, frame),
    oversize: (header, length) => handler.oversize(channel, header, length),
    garbage: (bytes, reason) => handler.garbage(channel, bytes, reason),
  });

  socket.on("data", (chunk: Buffer) => {
    lastReadAt = Date.now();
    decoder.push(chunk);
  });
  socket.on("drain", flushQueue);
  socket.on("error", (error: Error) => {
    if (failure === undefined) failure = error;
  });
  socket.once("close", () => {
    connected = false;
    blocked = false;
    queue = [];
    queuedBytes = 0;
    const waiters = drainWaiters;
    drainWaiters = [];
    for (const w of waiters) w();
    handler.closed(channel, failure);
  });
  return channel;
}
