import type { ConnectionOptions } from "node:tls";
import {
  Code,
  canceledError,
  type DeadlineTimers,
  HESSIAN2_SERIALIZATION_ID,
  RpcError,
} from "../../../core/index.js";
import {
  type Channel,
  type ChannelHandler,
  type Connectable,
  connectTransport,
  consoleLogger,
  formatHostPort,
  type Logger,
} from "../../../transport/index.js";
import { dubboFramer, HEADER_LENGTH } from "../framing/index.js";
import { type EventCodec, hessian2EventCodec, READONLY_EVENT } from "./event-codec.js";
import {
  bodyOf,
  encodeHeader,
  FLAG_EVENT,
  FLAG_REQUEST,
  FLAG_TWOWAY,
  fillFrameHeader,
  readCallId,
  readFlags,
  readId,
  readStatus,
  SERIALIZATION_MASK,
} from "./header.js";
import { createHeartbeat, type HeartbeatOptions, type HeartbeatTimer } from "./heartbeat.js";
import type { CallLabels, Response } from "./message.js";
import { createPendingCalls, type PendingCalls, RAW_RESPONSE, type ResponseReader } from "./pending-calls.js";
import { safeSend } from "./safe-send.js";
import { Status } from "./status.js";

export interface ExchangeClientOptions extends HeartbeatOptions {
  readonly host: string;
  readonly port: number;
  /** `connect.timeout`, ms. */
  readonly connectTimeoutMs?: number;
  /** `payload`, bytes, enforced on send and receive. */
  readonly payloadLimit?: number;
  /** `sendqueue`, bytes that may wait for a slow provider before sends fail. */
  readonly sendQueueLimit?: number;
  readonly tls?: ConnectionOptions;
  /** Serialization id written in request headers of calls that name none (2 = hessian2). */
  readonly serializationId?: number;
  /** Writes and reads event bodies and error messages (default: Hessian 2). */
  readonly codec?: EventCodec;
  readonly logger?: Logger;
  /** The deadline timers of the calls' timeouts, shared by every link of a protocol (default: its own). */
  readonly deadlines?: DeadlineTimers;
  /** Told when a link to the provider comes up or goes down (the application's monitor). */
  readonly onConnection?: (peer: string, up: boolean) => void;
}

/**
 * One consumer-side link to a provider address, speaking Dubbo 2 request/response: a pending map
 * with per-call timeouts, heartbeats on idle, the provider's READONLY event. It reconnects only when
 * asked (`connect()`), which a {@link ManagedConnection} does with backoff.
 */
export interface ExchangeClient extends Connectable {
  /** False once the provider sent READONLY on the current link (it is shutting down). */
  readonly isReadOnly: boolean;
  /** Connected and not read-only: may take new calls. */
  readonly isAvailable: boolean;
  readonly pendingCount: number;
  /** The current link, when connected (for tests and diagnostics). */
  readonly channel: Channel | undefined;
  /**
   * Sends a two-way request with an already serialized `body` and resolves with the OK response.
   * Rejects with `RpcError`: `DeadlineExceeded` after `timeoutMs` (naming service, method, address,
   * elapsed and configured ms), `Canceled` as soon as `signal` aborts (the pending entry is gone at
   * once; nothing is sent if it already had), `Unavailable` when the link is or goes down, the
   * status's code for a non-OK answer, `InvalidArgument` for a body over `payload`,
   * `ResourceExhausted` when the send queue is full.
   */
  request(body: Buffer, call: CallLabels, timeoutMs: number, signal?: AbortSignal): Promise<Response>;
  /**
   * Like `request`, for a body written after 16 free bytes (`frame`): the header is written into
   * them and the frame leaves as one buffer, with no copy. The promise resolves with what `read`
   * makes of the OK response (the protocol's decoding, done as it arrives: no second promise).
   */
  requestFramed<T>(
    frame: Buffer,
    call: CallLabels,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    read: ResponseReader<T>,
  ): Promise<T>;
  /** Sends a one-way request; throws like `request` rejects. */
  send(body: Buffer, call: CallLabels): void;
  /** `send` for a body written after 16 free bytes, as `requestFramed` takes it. */
  sendFramed(frame: Buffer, call: CallLabels): void;
  onReadOnly(listener: () => void): void;
}

/** How long close() waits for the peer to finish the TCP goodbye before cutting the link. */
const CLOSE_GRACE_MS = 1000;

export function createExchangeClient(options: ExchangeClientOptions): ExchangeClient {
  const address = formatHostPort(options.host, options.port);
  const codec = options.codec ?? hessian2EventCodec;
  const logger = options.logger ?? consoleLogger;
  const serializationId = (options.serializationId ?? HESSIAN2_SERIALIZATION_ID) & SERIALIZATION_MASK;
  const pending: PendingCalls = createPendingCalls(address, options.deadlines);
  const disconnectListeners: Array<(error: Error | undefined) => void> = [];
  const readOnlyListeners: Array<() => void> = [];
  let channel: Channel | undefined;
  let connecting: Promise<void> | undefined;
  let heartbeat: HeartbeatTimer | undefined;
  let readOnly = false;
  let closed = false;
  let nextId = 0;

  /** Request flags: a link shared by references with different serializations marks each call's own. */
  function requestFlags(call: CallLabels, twoWay: number): number {
    return FLAG_REQUEST | twoWay | ((call.serializationId ?? serializationId) & SERIALIZATION_MASK);
  }

  /**
   * The next call id. A number, not a bigint, so a call makes no bigint to count, write or look up
   * (Java's long counter never leaves this range in practice either); it wraps to 0 at 2^53.
   */
  function newId(): number {
    const id = nextId;
    nextId = id === Number.MAX_SAFE_INTEGER ? 0 : id + 1;
    return id;
  }

  function sendEvent(ch: Channel, twoWay: boolean, data: string | null): void {
    const body = codec.encodeEvent(data);
    const flags = FLAG_REQUEST | FLAG_EVENT | (twoWay ? FLAG_TWOWAY : 0) | codec.serializationId;
    ch.send(encodeHeader(flags, 0, newId(), body.length), body);
  }

  function handleRequest(ch: Channel, frame: Buffer, flags: number): void {
    const event = (flags & FLAG_EVENT) !== 0;
    const twoWay = (flags & FLAG_TWOWAY) !== 0;
    const id = readId(frame);
    if (event) {
      const data = codec.decodeEvent(bodyOf(frame), flags & SERIALIZATION_MASK);
      if (data === READONLY_EVENT) {
        if (!readOnly) {
          readOnly = true;
          logger.info(`provider ${address} is read-only (shutting down); no new calls go to it`);
          for (const listener of readOnlyListeners) listener();
        }
      } else if (twoWay) {
        // The provider's heartbeat: answer with an event response to the same id.
        const body = codec.encodeEvent(null);
        safeSend(ch, logger, () =>
          ch.send(encodeHeader(FLAG_EVENT | codec.serializationId, Status.OK, id, body.length), body),
        );
      }
      return;
    }
    if (twoWay) {
      const body = codec.encodeErrorMessage(`the consumer at ${ch.localAddress} serves no calls`);
      safeSend(ch, logger, () =>
        ch.send(encodeHeader(codec.serializationId, Status.SERVICE_NOT_FOUND, id, body.length), body),
      );
    }
  }

  const handler: ChannelHandler = {
    frame(ch, frame) {
      const flags = readFlags(frame);
      if ((flags & FLAG_REQUEST) !== 0) {
        handleRequest(ch, frame, flags);
        return;
      }
      if ((flags & FLAG_EVENT) !== 0) return; // a heartbeat answer: reading it was the point
      const status = readStatus(frame);
      const id = readCallId(frame);
      if (status === Status.OK) {
        pending.resolve(id, flags & SERIALIZATION_MASK, bodyOf(frame));
      } else {
        pending.fail(id, status, codec.decodeErrorMessage(bodyOf(frame), flags & SERIALIZATION_MASK));
      }
    },
    oversize(ch, header, bodyLength) {
      const flags = readFlags(header);
      const message =
        `a message of ${bodyLength} bytes from ${address} exceeds the payload limit of ` +
        `${ch.payloadLimit} bytes (set \`payload\` to raise it)`;
      if ((flags & (FLAG_REQUEST | FLAG_EVENT)) === 0)
        pending.failWith(readCallId(header), message, Code.InvalidArgument);
      else logger.warn(message);
    },
    garbage(ch, _bytes, reason) {
      ch.destroy(new RpcError(`${address} sent bytes that are not Dubbo frames: ${reason}`, Code.Internal));
    },
    closed(ch, error) {
      if (channel !== ch) return;
      channel = undefined;
      heartbeat?.stop();
      heartbeat = undefined;
      pending.failAll(error);
      options.onConnection?.(address, false);
      for (const listener of disconnectListeners) listener(error);
    },
  };

  function requireChannel(call: CallLabels): Channel {
    if (channel?.isConnected) return channel;
    throw new RpcError(
      `cannot call ${call.service}.${call.method}: not connected to ${address}`,
      Code.Unavailable,
    );
  }

  /** A request whose caller already gave up is not sent. */
  function refuseCanceled(call: CallLabels, signal: AbortSignal | undefined): void {
    if (signal?.aborted === true) {
      throw canceledError(`${call.service}.${call.method} to ${address} (before sending)`, signal.reason);
    }
  }

  function checkPayload(ch: Channel, bodyLength: number, call: CallLabels): void {
    if (bodyLength <= ch.payloadLimit) return;
    throw new RpcError(
      `the request of ${call.service}.${call.method} to ${address} is ${bodyLength} bytes, over the ` +
        `payload limit of ${ch.payloadLimit} bytes (set \`payload\` to raise it)`,
      Code.InvalidArgument,
    );
  }

  const client: ExchangeClient = {
    address,
    get isConnected() {
      return channel?.isConnected === true;
    },
    get isReadOnly() {
      return readOnly;
    },
    get isAvailable() {
      return !readOnly && channel !== undefined && channel.isConnected;
    },
    get pendingCount() {
      return pending.size;
    },
    get channel() {
      return channel;
    },
    connect() {
      if (closed) return Promise.reject(new RpcError(`the client of ${address} is closed`, Code.Unavailable));
      if (channel?.isConnected) return Promise.resolve();
      connecting ??= connectTransport({
        framer: dubboFramer,
        host: options.host,
        port: options.port,
        ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
        ...(options.payloadLimit === undefined ? {} : { payloadLimit: options.payloadLimit }),
        ...(options.sendQueueLimit === undefined ? {} : { sendQueueLimit: options.sendQueueLimit }),
        ...(options.tls === undefined ? {} : { tls: options.tls }),
        handler,
      }).then(
        (ch) => {
          connecting = undefined;
          if (closed) {
            ch.destroy();
            throw new RpcError(`the client of ${address} is closed`, Code.Unavailable);
          }
          channel = ch;
          readOnly = false;
          options.onConnection?.(address, true);
          heartbeat = createHeartbeat(ch, options, logger, (c) => sendEvent(c, true, null));
        },
        (error: unknown) => {
          connecting = undefined;
          throw error;
        },
      );
      return connecting;
    },
    onDisconnect(listener) {
      disconnectListeners.push(listener);
    },
    onReadOnly(listener) {
      readOnlyListeners.push(listener);
    },
    request(body, call, timeoutMs, signal) {
      let ch: Channel;
      let id: number;
      try {
        refuseCanceled(call, signal);
        ch = requireChannel(call);
        checkPayload(ch, body.length, call);
        id = newId();
        ch.send(encodeHeader(requestFlags(call, FLAG_TWOWAY), 0, id, body.length), body);
      } catch (error) {
        return Promise.reject(error);
      }
      return pending.add(id, call, timeoutMs, signal, RAW_RESPONSE);
    },
    requestFramed(frame, call, timeoutMs, signal, read) {
      let id: number;
      try {
        refuseCanceled(call, signal);
        const ch = requireChannel(call);
        checkPayload(ch, frame.length - HEADER_LENGTH, call);
        id = newId();
        ch.sendFrame(fillFrameHeader(frame, requestFlags(call, FLAG_TWOWAY), 0, id));
      } catch (error) {
        return Promise.reject(error);
      }
      return pending.add(id, call, timeoutMs, signal, read);
    },
    send(body, call) {
      const ch = requireChannel(call);
      checkPayload(ch, body.length, call);
      ch.send(encodeHeader(requestFlags(call, 0), 0, newId(), body.length), body);
    },
    sendFramed(frame, call) {
      const ch = requireChannel(call);
      checkPayload(ch, frame.length - HEADER_LENGTH, call);
      ch.sendFrame(fillFrameHeader(frame, requestFlags(call, 0), 0, newId()));
    },
    async close() {
      closed = true;
      const ch = channel;
      if (ch === undefined) return;
      const done = new Promise<void>((resolve) => disconnectListeners.push(() => resolve()));
      ch.close();
      // A peer that never finishes its goodbye does not hold close() up.
      const cut = setTimeout(() => ch.destroy(), CLOSE_GRACE_MS);
      cut.unref();
      await done;
      clearTimeout(cut);
    },
  };
  return client;
}
