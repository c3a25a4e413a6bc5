import type { Http2Stream } from "node:http2";
import { Code, RpcError } from "../../core/index.js";
import { frameMessage, type MessageEncoding, MessageReader, messageBytes } from "./grpc-frame.js";

/**
 * The messages of an HTTP/2 stream's data, as it arrives. Pulling it reads the stream, so a slow
 * consumer stops reading and HTTP/2 flow control holds the peer back. A stream that closes before
 * its end (RST_STREAM) fails with what `interrupted()` says.
 */
export async function* readMessages(
  stream: Http2Stream,
  encoding: MessageEncoding,
  limit: number,
  what: string,
  interrupted: () => RpcError,
): AsyncGenerator<Buffer> {
  const reader = new MessageReader(limit, what);
  try {
    for await (const chunk of stream) {
      reader.push(chunk as Buffer);
      while (reader.messages.length > 0) {
        yield await messageBytes(reader.messages.shift()!, encoding, limit, what);
      }
    }
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw interrupted();
  }
  reader.finish();
}

/**
 * Writes one message, waiting while the stream's buffer is full (`write` returned false) until it
 * drains; fails if the stream closes first.
 */
export async function writeMessage(
  stream: Http2Stream,
  payload: Uint8Array,
  encoding: MessageEncoding,
  limit: number,
  what: string,
): Promise<void> {
  if (payload.length > limit) {
    throw new RpcError(
      `${what}: a message is ${payload.length} bytes, over the payload limit of ${limit} bytes; raise \`payload\` or send less`,
      Code.ResourceExhausted,
    );
  }
  const frame = await frameMessage(payload, encoding);
  if (stream.destroyed || stream.closed) throw new RpcError(`${what}: the stream closed`, Code.Canceled);
  if (stream.write(frame)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (): void => {
      stream.off("drain", settle);
      stream.off("close", settle);
      if (stream.closed || stream.destroyed)
        reject(new RpcError(`${what}: the stream closed while a message waited to be sent`, Code.Canceled));
      else resolve();
    };
    stream.on("drain", settle);
    stream.on("close", settle);
  });
}
