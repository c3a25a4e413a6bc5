// Dubbo 2 frames on a byte stream: a 16-byte header (magic, flags, status, 8-byte request id,
// 4-byte body length) and the body. Enough to split a stream and match ids, nothing decoded.
export const DUBBO_HEADER = 16;

/** Splits a byte stream into whole frames; keeps a partial frame across chunks. */
export function createDubboFrameReader(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let rest: Buffer | undefined;
  return (chunk) => {
    const buf = rest === undefined ? chunk : Buffer.concat([rest, chunk]);
    rest = undefined;
    let offset = 0;
    while (buf.length - offset >= DUBBO_HEADER) {
      const end = offset + DUBBO_HEADER + buf.readUInt32BE(offset + 12);
      if (end > buf.length) break;
      onFrame(buf.subarray(offset, end));
      offset = end;
    }
    if (offset < buf.length) rest = Buffer.from(buf.subarray(offset));
  };
}
