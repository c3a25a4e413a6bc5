import type { FrameDecoder, Framer, FrameSink } from "../../../transport/index.js";
import { HEADER_LENGTH, LENGTH_OFFSET, MAGIC_HIGH, MAGIC_LOW } from "./frame.js";

/**
 * A streaming splitter of Dubbo 2 frames (garbage: bytes without the magic 0xdabb at a frame
 * boundary, such as telnet input, HTTP or a port scanner, or a negative body length) over socket chunks: partial frames are held until complete,
 * many frames in one chunk are emitted one by one, a frame split over many chunks is joined once.
 */
export function createFrameDecoder(payloadLimit: number, sink: FrameSink): FrameDecoder {
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** Bytes needed before `held` can make progress: a header, then the whole frame. */
  let needed = HEADER_LENGTH;
  let skipping = 0;
  let failed = false;

  function fail(bytes: Buffer, reason: string): void {
    failed = true;
    held = [];
    heldBytes = 0;
    sink.garbage(bytes, reason);
  }

  /** Emits every complete frame of `buf` from `offset`; returns where the unfinished rest starts. */
  function drain(buf: Buffer, offset: number): number {
    const end = buf.length;
    while (offset < end) {
      if (skipping > 0) {
        const n = Math.min(skipping, end - offset);
        skipping -= n;
        offset += n;
        continue;
      }
      const available = end - offset;
      if (buf[offset] !== MAGIC_HIGH || (available > 1 && buf[offset + 1] !== MAGIC_LOW)) {
        fail(buf.subarray(offset), "the bytes do not start with the Dubbo magic 0xdabb");
        return end;
      }
      if (available < HEADER_LENGTH) return offset;
      const bodyLength = buf.readInt32BE(offset + LENGTH_OFFSET);
      if (bodyLength < 0) {
        fail(buf.subarray(offset), `the frame header declares a negative body length ${bodyLength}`);
        return end;
      }
      if (bodyLength > payloadLimit) {
        const header = Buffer.from(buf.subarray(offset, offset + HEADER_LENGTH));
        offset += HEADER_LENGTH;
        skipping = bodyLength;
        sink.oversize(header, bodyLength);
        if (failed) return end;
        continue;
      }
      const frameLength = HEADER_LENGTH + bodyLength;
      if (available < frameLength) {
        needed = frameLength;
        return offset;
      }
      sink.frame(buf.subarray(offset, offset + frameLength));
      if (failed) return end;
      offset += frameLength;
    }
    return offset;
  }

  function hold(buf: Buffer, from: number): void {
    if (from >= buf.length) return;
    const rest = buf.subarray(from);
    held.push(rest);
    heldBytes += rest.length;
    // Before the header is known, two magic bytes already tell garbage from a frame.
    if (heldBytes < HEADER_LENGTH) needed = HEADER_LENGTH;
  }

  return {
    get bufferedBytes() {
      return heldBytes;
    },
    push(chunk) {
      if (failed || chunk.length === 0) return;
      if (heldBytes === 0) {
        needed = HEADER_LENGTH;
        hold(chunk, drain(chunk, 0));
        return;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      // While the header is incomplete, join at once (a few bytes) so the magic is checked early;
      // while a body is incomplete, wait until the whole frame is in and join once.
      if (needed > HEADER_LENGTH && heldBytes < needed) return;
      const joined = held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
      held = [];
      heldBytes = 0;
      needed = HEADER_LENGTH;
      hold(joined, drain(joined, 0));
    },
  };
}

/** The Dubbo 2 framer every dubbo channel is given (magic 0xdabb, 16-byte header, body length). */
export const dubboFramer: Framer = Object.freeze({
  headerLength: HEADER_LENGTH,
  createDecoder: createFrameDecoder,
});
