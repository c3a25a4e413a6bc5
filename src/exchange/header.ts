import {
  FLAG_OFFSET,
  HEADER_LENGTH,
  ID_OFFSET,
  LENGTH_OFFSET,
  MAGIC,
  STATUS_OFFSET,
} from "../transport/index.js";

/** Flag bits of header byte 2, and the serialization id in its low five bits. */
export const FLAG_REQUEST = 0x80;
export const FLAG_TWOWAY = 0x40;
export const FLAG_EVENT = 0x20;
export const SERIALIZATION_MASK = 0x1f;

/**
 * Writes a 16-byte header: magic, flags | serialization id, status (0 in requests), the signed
 * 64-bit id (any bigint is taken modulo 2^64, so a negative id from Java round-trips bit for bit),
 * and the body length.
 */
export function encodeHeader(flags: number, status: number, id: bigint, bodyLength: number): Buffer {
  const header = Buffer.allocUnsafe(HEADER_LENGTH);
  header.writeUInt16BE(MAGIC, 0);
  header[FLAG_OFFSET] = flags;
  header[STATUS_OFFSET] = status;
  header.writeBigInt64BE(BigInt.asIntN(64, id), ID_OFFSET);
  header.writeInt32BE(bodyLength, LENGTH_OFFSET);
  return header;
}

export function readFlags(frame: Buffer): number {
  return frame[FLAG_OFFSET]!;
}

export function readStatus(frame: Buffer): number {
  return frame[STATUS_OFFSET]!;
}

/** The request id as a signed 64-bit bigint (Java's `long`). */
export function readId(frame: Buffer): bigint {
  return frame.readBigInt64BE(ID_OFFSET);
}

export function readBodyLength(frame: Buffer): number {
  return frame.readInt32BE(LENGTH_OFFSET);
}

/** The body of a whole frame, sharing its memory. */
export function bodyOf(frame: Buffer): Buffer {
  return frame.subarray(HEADER_LENGTH);
}
