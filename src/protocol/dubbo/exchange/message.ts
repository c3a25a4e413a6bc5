import type { Channel } from "../../../transport/index.js";

/** A decoded request. `body` is the serialized payload, opaque here; the protocol layer decodes it. */
export interface Request {
  /** The peer's id (see `readRequestId`): a number when exact as one, else a bigint. */
  readonly id: bigint | number;
  readonly twoWay: boolean;
  readonly event: boolean;
  /** The serialization id of the body (2 = hessian2). */
  readonly serializationId: number;
  readonly body: Buffer;
}

/** A decoded response with status OK (others become an `RpcError`); `id` is the call's (see `readCallId`). */
export interface Response {
  readonly id: number;
  readonly status: number;
  readonly serializationId: number;
  readonly body: Buffer;
}

/** A request as the server hands it to its handler, with the channel it came on. */
export interface ServerRequest extends Request {
  readonly channel: Channel;
}

/** What the service/method of a call are called, for error messages. Create one per method, not per call. */
export interface CallLabels {
  readonly service: string;
  readonly method: string;
  /** The serialization id the call's body is in, written in its header (default: the client's). */
  readonly serializationId?: number;
}

/**
 * A provider's answer other than OK: the status byte and the error message the consumer sees
 * (written as a serialized UTF string, as Java's `ExchangeCodec` does).
 */
export interface ErrorReply {
  readonly status: number;
  readonly message: string;
}

/** An OK answer: the serialized body, in `serializationId` (default: the request's). */
export interface OkReply {
  readonly body: Buffer;
  readonly serializationId?: number;
  /**
   * The body was written after 16 free bytes (its first 16 bytes are not the body): the server
   * writes the header there and sends header and body as one buffer, with no copy.
   */
  readonly framed?: boolean;
}

/**
 * An answer still being worked out, made a reply in the one reaction the exchange registers on
 * `outcome`, so the handler adds no promise step of its own: `reply` for its value, `replyToError`
 * for its rejection (either may throw: an `RpcError` answers with its code's status). Both are
 * called for one-way requests too (the handler's bookkeeping), and their reply is then dropped.
 */
export interface PendingReply<T> {
  readonly outcome: Promise<T>;
  reply(value: T): OkReply | ErrorReply;
  replyToError(error: unknown): OkReply | ErrorReply;
}
