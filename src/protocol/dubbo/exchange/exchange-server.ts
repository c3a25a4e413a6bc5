import type { TlsOptions } from "node:tls";
import { DEFAULT_SHUTDOWN_WAIT_MS, RpcError } from "../../../core/index.js";
import {
  type Channel,
  consoleLogger,
  type Logger,
  listenTransport,
  type ServerHandler,
  type TransportServer,
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
  readFlags,
  readRequestId,
  SERIALIZATION_MASK,
} from "./header.js";
import { createHeartbeat, type HeartbeatOptions, type HeartbeatTimer } from "./heartbeat.js";
import type { ErrorReply, OkReply, PendingReply, ServerRequest } from "./message.js";
import { safeSend } from "./safe-send.js";
import { Status, statusFromCode } from "./status.js";

/**
 * Serves one request. Return the OK body (or an {@link OkReply}), an {@link ErrorReply} for another
 * status, a promise of one, a {@link PendingReply}, or throw: an `RpcError` answers with its code's
 * status, anything else with SERVICE_ERROR. For one-way requests the outcome is dropped. Called on
 * the I/O callback: dispatch is the caller's.
 */
export type RequestHandler = (
  request: ServerRequest,
) => Buffer | OkReply | ErrorReply | Promise<Buffer | OkReply | ErrorReply> | PendingReply<unknown>;

function isPendingReply(result: ReturnType<RequestHandler>): result is PendingReply<unknown> {
  return (result as Partial<PendingReply<unknown>>).outcome !== undefined;
}

export interface ExchangeServerOptions extends HeartbeatOptions {
  readonly host?: string;
  readonly port: number;
  /** `accepts`: most connections; 0 means no limit. */
  readonly accepts?: number;
  /** `backlog`: connections the kernel queues before they are accepted. */
  readonly backlog?: number;
  /** `payload`, bytes, enforced on receive (BAD_REQUEST) and send (BAD_RESPONSE). */
  readonly payloadLimit?: number;
  readonly sendQueueLimit?: number;
  readonly tls?: TlsOptions;
  readonly codec?: EventCodec;
  readonly logger?: Logger;
  readonly handler: RequestHandler;
  /** Told when a caller's connection comes up or goes down (the application's monitor). */
  readonly onConnection?: (peer: string, up: boolean) => void;
}

export interface ExchangeServer {
  readonly port: number;
  readonly host: string;
  readonly channels: ReadonlySet<Channel>;
  /** Requests being served (received, not yet answered), over all channels. */
  readonly inFlight: number;
  /** Sends the READONLY event on every channel (consumers stop choosing this provider). */
  sendReadOnly(): void;
  /**
   * Graceful shutdown: stop accepting, send READONLY to every channel, answer new requests with
   * CHANNEL_INACTIVE (retryable), wait up to `waitMs` for in-flight requests, then close every channel.
   */
  close(options?: { readonly waitMs?: number }): Promise<void>;
}

/** Java answers non-Dubbo bytes as telnet input; we answer one line and close. */
const NOT_DUBBO_REPLY = "dubbo-ts: this port speaks the Dubbo 2 binary protocol (magic 0xdabb); closing.\r\n";
const DRAIN_POLL_MS = 10;

function isErrorReply(value: Buffer | OkReply | ErrorReply): value is ErrorReply {
  return !Buffer.isBuffer(value) && "status" in value;
}

export async function createExchangeServer(options: ExchangeServerOptions): Promise<ExchangeServer> {
  const codec = options.codec ?? hessian2EventCodec;
  const logger = options.logger ?? consoleLogger;
  const handler = options.handler;
  const heartbeats = new Map<Channel, HeartbeatTimer>();
  let inFlight = 0;
  let closing = false;
  let nextEventId = 0n;

  function sendError(ch: Channel, id: bigint | number, status: number, message: string): void {
    let body = codec.encodeErrorMessage(message);
    // Under a tiny `payload` the message is cut rather than the answer lost (3 bytes per char at most).
    if (body.length > ch.payloadLimit)
      body = codec.encodeErrorMessage(message.slice(0, (ch.payloadLimit - 3) / 3));
    ch.send(encodeHeader(codec.serializationId, status, id, body.length), body);
  }

  function answer(ch: Channel, request: ServerRequest, outcome: Buffer | OkReply | ErrorReply): void {
    if (!ch.isConnected) return;
    if (isErrorReply(outcome)) {
      sendError(ch, request.id, outcome.status, outcome.message);
      return;
    }
    const isBuffer = Buffer.isBuffer(outcome);
    const body = isBuffer ? outcome : outcome.body;
    const framed = !isBuffer && outcome.framed === true;
    const serializationId = isBuffer
      ? request.serializationId
      : (outcome.serializationId ?? request.serializationId);
    const bodyLength = framed ? body.length - HEADER_LENGTH : body.length;
    if (bodyLength > ch.payloadLimit) {
      // As Java: the consumer learns why at once instead of waiting for its timeout.
      const message =
        `the response to request ${request.id} is ${bodyLength} bytes, over the provider's payload limit ` +
        `of ${ch.payloadLimit} bytes (set \`payload\` to raise it)`;
      logger.warn(message);
      sendError(ch, request.id, Status.BAD_RESPONSE, message);
      return;
    }
    const flags = serializationId & SERIALIZATION_MASK;
    if (framed) ch.sendFrame(fillFrameHeader(body, flags, Status.OK, request.id));
    else ch.send(encodeHeader(flags, Status.OK, request.id, body.length), body);
  }

  function fail(ch: Channel, request: ServerRequest, error: unknown): void {
    if (!request.twoWay || !ch.isConnected) return;
    const status = error instanceof RpcError ? statusFromCode(error.code) : Status.SERVICE_ERROR;
    const message = error instanceof Error ? error.message : String(error);
    sendError(ch, request.id, status, message);
  }

  // safeSend without a closure per answer: the hot path replies through these.
  function answerSafely(ch: Channel, request: ServerRequest, outcome: Buffer | OkReply | ErrorReply): void {
    if (!ch.isConnected) return;
    try {
      answer(ch, request, outcome);
    } catch (error) {
      logger.warn(`could not answer ${ch.remoteAddress}: ${(error as Error).message}`);
    }
  }

  function failSafely(ch: Channel, request: ServerRequest, error: unknown): void {
    if (!ch.isConnected) return;
    try {
      fail(ch, request, error);
    } catch (sendError) {
      logger.warn(`could not answer ${ch.remoteAddress}: ${(sendError as Error).message}`);
    }
  }

  function settlePending(
    ch: Channel,
    request: ServerRequest,
    pending: PendingReply<unknown>,
    failed: boolean,
    outcome: unknown,
  ): void {
    let reply: OkReply | ErrorReply;
    try {
      reply = failed ? pending.replyToError(outcome) : pending.reply(outcome);
    } catch (error) {
      failSafely(ch, request, error);
      return;
    }
    if (request.twoWay) answerSafely(ch, request, reply);
  }

  function dispatch(ch: Channel, request: ServerRequest): void {
    inFlight += 1;
    let result: ReturnType<RequestHandler>;
    try {
      result = handler(request);
    } catch (error) {
      inFlight -= 1;
      failSafely(ch, request, error);
      return;
    }
    if (!(result instanceof Promise) && isPendingReply(result)) {
      const pending = result;
      pending.outcome.then(
        (value) => {
          inFlight -= 1;
          settlePending(ch, request, pending, false, value);
        },
        (error: unknown) => {
          inFlight -= 1;
          settlePending(ch, request, pending, true, error);
        },
      );
      return;
    }
    if (result instanceof Promise) {
      result.then(
        (outcome) => {
          inFlight -= 1;
          if (request.twoWay) answerSafely(ch, request, outcome);
        },
        (error: unknown) => {
          inFlight -= 1;
          failSafely(ch, request, error);
        },
      );
      return;
    }
    inFlight -= 1;
    if (request.twoWay) answerSafely(ch, request, result);
  }

  const serverHandler: ServerHandler = {
    connected(ch) {
      heartbeats.set(ch, createHeartbeat(ch, options, logger, undefined));
      options.onConnection?.(ch.remoteAddress, true);
      if (closing) safeSend(ch, logger, () => sendReadOnlyTo(ch));
    },
    frame(ch, frame) {
      const flags = readFlags(frame);
      if ((flags & FLAG_REQUEST) === 0) return; // a response to our READONLY or a heartbeat answer
      const id = readRequestId(frame);
      const twoWay = (flags & FLAG_TWOWAY) !== 0;
      if ((flags & FLAG_EVENT) !== 0) {
        if (twoWay) {
          // A heartbeat: answer at once with an event response to the same id, as Java's HeartbeatHandler.
          const body = codec.encodeEvent(null);
          safeSend(ch, logger, () =>
            ch.send(encodeHeader(FLAG_EVENT | codec.serializationId, Status.OK, id, body.length), body),
          );
        }
        return;
      }
      if (closing) {
        if (twoWay) {
          safeSend(ch, logger, () =>
            sendError(ch, id, Status.CHANNEL_INACTIVE, `the provider at ${ch.localAddress} is shutting down`),
          );
        }
        return;
      }
      const request: ServerRequest = {
        id,
        twoWay,
        event: false,
        serializationId: flags & SERIALIZATION_MASK,
        body: bodyOf(frame),
        channel: ch,
      };
      dispatch(ch, request);
    },
    oversize(ch, header, bodyLength) {
      const flags = readFlags(header);
      const message =
        `the request of ${bodyLength} bytes from ${ch.remoteAddress} exceeds the provider's payload limit ` +
        `of ${ch.payloadLimit} bytes (set \`payload\` to raise it)`;
      logger.warn(message);
      if ((flags & FLAG_REQUEST) !== 0 && (flags & FLAG_TWOWAY) !== 0 && (flags & FLAG_EVENT) === 0) {
        safeSend(ch, logger, () => sendError(ch, readRequestId(header), Status.BAD_REQUEST, message));
      }
    },
    garbage(ch, _bytes, reason) {
      logger.warn(`closing the connection from ${ch.remoteAddress}: ${reason}`);
      safeSend(ch, logger, () => ch.send(Buffer.from(NOT_DUBBO_REPLY), undefined));
      ch.close();
    },
    closed(ch) {
      heartbeats.get(ch)?.stop();
      heartbeats.delete(ch);
      options.onConnection?.(ch.remoteAddress, false);
    },
  };

  const transport: TransportServer = await listenTransport({
    framer: dubboFramer,
    port: options.port,
    handler: serverHandler,
    logger,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.accepts === undefined ? {} : { accepts: options.accepts }),
    ...(options.backlog === undefined ? {} : { backlog: options.backlog }),
    ...(options.payloadLimit === undefined ? {} : { payloadLimit: options.payloadLimit }),
    ...(options.sendQueueLimit === undefined ? {} : { sendQueueLimit: options.sendQueueLimit }),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  });

  function sendReadOnlyTo(ch: Channel): void {
    if (!ch.isConnected) return;
    // Java's readonly event: a one-way EVENT request whose data is the string "R".
    const body = codec.encodeEvent(READONLY_EVENT);
    const id = nextEventId;
    nextEventId = BigInt.asIntN(64, nextEventId + 1n);
    ch.send(encodeHeader(FLAG_REQUEST | FLAG_EVENT | codec.serializationId, 0, id, body.length), body);
  }

  let closed: Promise<void> | undefined;
  return {
    port: transport.port,
    host: transport.host,
    channels: transport.channels,
    get inFlight() {
      return inFlight;
    },
    sendReadOnly() {
      for (const ch of transport.channels) safeSend(ch, logger, () => sendReadOnlyTo(ch));
    },
    close(closeOptions = {}) {
      closed ??= (async () => {
        const waitMs = closeOptions.waitMs ?? DEFAULT_SHUTDOWN_WAIT_MS;
        closing = true;
        const stopped = transport.stopAccepting();
        for (const ch of transport.channels) safeSend(ch, logger, () => sendReadOnlyTo(ch));
        const deadline = Date.now() + waitMs;
        while (inFlight > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
        }
        if (inFlight > 0) {
          logger.warn(
            `closing with ${inFlight} requests still in flight after ${waitMs} ms (set \`shutdown.wait\`)`,
          );
        }
        await Promise.all([...transport.channels].map((ch) => ch.whenDrained()));
        await transport.close();
        await stopped;
      })();
      return closed;
    },
  };
}
