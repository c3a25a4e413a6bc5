/**
 * How a protocol cuts a byte stream into frames. The transport moves bytes and keeps connections
 * up; what a frame is (Dubbo 2's 16-byte header, a length prefix, …) is the protocol's, given to
 * every channel as its framer.
 */

/** What a frame decoder reports, in stream order. */
export interface FrameSink {
  /** One whole frame, header included. The buffer may share memory with the socket chunk. */
  frame(frame: Buffer): void;
  /**
   * A frame whose body is larger than `payload`. Its body is skipped without being buffered and the
   * stream continues after it, so one oversize message does not cost the connection.
   * `header` is a copy of the frame's header bytes (to answer or fail the call it belongs to).
   */
  oversize(header: Buffer, bodyLength: number): void;
  /** Bytes that are not frames of this protocol at a frame boundary. The decoder stops. */
  garbage(bytes: Buffer, reason: string): void;
}

/** The streaming decoder of one connection's inbound bytes. */
export interface FrameDecoder {
  /** Feed one socket chunk. */
  push(chunk: Buffer): void;
  /** Bytes held while waiting for the rest of a frame. */
  readonly bufferedBytes: number;
}

export interface Framer {
  /** Bytes of every frame before its body: the payload limit counts the body only. */
  readonly headerLength: number;
  /** A decoder for one connection, enforcing `payloadLimit` on frame bodies. */
  createDecoder(payloadLimit: number, sink: FrameSink): FrameDecoder;
}
