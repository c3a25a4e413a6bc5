import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { Code, RpcError } from "../../core/index.js";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A gRPC message's prefix: 1 byte compressed flag, 4 bytes big-endian length. */
export const MESSAGE_PREFIX_BYTES = 5;

/** The `grpc-encoding` values both sides speak. */
export type MessageEncoding = "identity" | "gzip";

export const ACCEPTED_ENCODINGS = "identity,gzip";

/** A request's or response's `grpc-encoding` (absent means identity); another value is refused. */
export function messageEncodingOf(header: string | undefined): MessageEncoding {
  if (header === undefined || header === "" || header === "identity") return "identity";
  if (header === "gzip") return "gzip";
  throw new RpcError(
    `grpc-encoding "${header}" is not supported (supported: ${ACCEPTED_ENCODINGS})`,
    Code.Unimplemented,
  );
}

/** One length-prefixed message of `body` as it is, with the compressed flag as given. */
function prefixMessage(body: Uint8Array, compressed: boolean): Buffer {
  const frame = Buffer.allocUnsafe(MESSAGE_PREFIX_BYTES + body.length);
  frame[0] = compressed ? 1 : 0;
  frame.writeUInt32BE(body.length, 1);
  frame.set(body, MESSAGE_PREFIX_BYTES);
  return frame;
}

/**
 * One length-prefixed message, compressed when `encoding` is gzip. Only compressing waits (zlib
 * works off the main thread): an identity message is framed at once, so a unary call's hot path
 * pays no promise for it.
 */
export function frameMessage(payload: Uint8Array, encoding: MessageEncoding): Buffer | Promise<Buffer> {
  if (encoding === "identity") return prefixMessage(payload, false);
  return gzipAsync(payload).then((body) => prefixMessage(body, true));
}

/**
 * {@link frameMessage} of a payload its encoder wrote after {@link MESSAGE_PREFIX_BYTES} unwritten
 * bytes of `buffer`: an identity message gets its prefix written there, with no copy.
 */
export function frameReservedMessage(buffer: Buffer, encoding: MessageEncoding): Buffer | Promise<Buffer> {
  if (encoding !== "identity") return frameMessage(buffer.subarray(MESSAGE_PREFIX_BYTES), encoding);
  buffer[0] = 0;
  buffer.writeUInt32BE(buffer.length - MESSAGE_PREFIX_BYTES, 1);
  return buffer;
}

/** A message as it came off the stream, before decompression. */
export interface RawMessage {
  readonly compressed: boolean;
  readonly payload: Buffer;
}

/**
 * What a message's errors name (`the request to … at host:port`): the text, or the call that
 * spells it only when an error needs it, so a call that succeeds builds no such string.
 */
export type MessageOwner = string | { describe(): string };

export function describeOwner(owner: MessageOwner): string {
  return typeof owner === "string" ? owner : owner.describe();
}

function tooLarge(owner: MessageOwner, size: string, limit: number): RpcError {
  const what = describeOwner(owner);
  return new RpcError(
    `${what} is ${size}, over the payload limit of ${limit} bytes; raise \`payload\` on both sides or send less`,
    Code.ResourceExhausted,
  );
}

const NO_BYTES = Buffer.alloc(0);

/**
 * Splits an HTTP/2 stream's data into length-prefixed messages. A message whose declared length is
 * over `limit` fails before its bytes are buffered.
 */
export class MessageReader {
  readonly #limit: number;
  readonly #what: MessageOwner;
  #pending: Buffer = NO_BYTES;
  readonly messages: RawMessage[] = [];

  constructor(limit: number, what: MessageOwner) {
    this.#limit = limit;
    this.#what = what;
  }

  push(chunk: Buffer): void {
    const data = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    let at = 0;
    while (data.length - at >= MESSAGE_PREFIX_BYTES) {
      const length = data.readUInt32BE(at + 1);
      if (length > this.#limit) throw tooLarge(this.#what, `${length} bytes`, this.#limit);
      const end = at + MESSAGE_PREFIX_BYTES + length;
      if (data.length < end) break;
      const flag = data[at]!;
      if (flag > 1) {
        throw new RpcError(
          `${describeOwner(this.#what)} has compressed flag ${flag} (expected 0 or 1): the peer does not speak gRPC framing`,
          Code.Internal,
        );
      }
      this.messages.push({ compressed: flag === 1, payload: data.subarray(at + MESSAGE_PREFIX_BYTES, end) });
      at = end;
    }
    this.#pending = at === data.length ? NO_BYTES : data.subarray(at);
  }

  /** The stream ended: a partial message left over is an error. */
  finish(): void {
    if (this.#pending.length > 0) {
      throw new RpcError(
        `${describeOwner(this.#what)} ended inside a message (${this.#pending.length} bytes left over)`,
        Code.Internal,
      );
    }
  }
}

/**
 * The message's bytes, decompressed as the stream's `grpc-encoding` says, within the limit. An
 * uncompressed message's bytes come back at once (no promise), a compressed one's once inflated.
 */
export function messageBytes(
  message: RawMessage,
  encoding: MessageEncoding,
  limit: number,
  owner: MessageOwner,
): Buffer | Promise<Buffer> {
  if (!message.compressed) return message.payload;
  const what = describeOwner(owner);
  if (encoding === "identity") {
    throw new RpcError(`${what} is compressed but the stream's grpc-encoding is identity`, Code.Internal);
  }
  return gunzipAsync(message.payload, { maxOutputLength: limit }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw tooLarge(what, "larger once decompressed", limit);
    throw new RpcError(`${what} is not valid gzip: ${(error as Error).message}`, Code.Internal, {
      cause: error,
    });
  });
}
