import {
  FLAG_OFFSET,
  HEADER_LENGTH,
  ID_OFFSET,
  LENGTH_OFFSET,
  MAGIC,
  STATUS_OFFSET,
} from "../framing/index.js";

/** Flag bits of header byte 2, and the serialization id in its low five bits. */
export const FLAG_REQUEST = 0x80;
export const FLAG_TWOWAY = 0x40;
export const FLAG_EVENT = 0x20;
export const SERIALIZATION_MASK = 0x1f;

const TWO_TO_32 = 2 ** 32;

/**
 * Writes a 16-byte header: magic, flags | serialization id, status (0 in requests), the signed
 * 64-bit id, and the body length. A peer's id is a bigint (taken modulo 2^64, so a negative id
 * from Java round-trips bit for bit); a client's own call id is a number (see {@link readCallId}).
 */
export function encodeHeader(flags: number, status: number, id: bigint | number, bodyLength: number): Buffer {
  const header = Buffer.allocUnsafe(HEADER_LENGTH);
  writeHeaderInto(header, flags, status, id, bodyLength);
  return header;
}

/**
 * Writes the 16-byte header into the first bytes of `frame`, a body written after 16 free bytes
 * (see `OkReply.framed`), so header and body leave as one buffer; the body length is the rest.
 */
export function fillFrameHeader(frame: Buffer, flags: number, status: number, id: bigint | number): Buffer {
  writeHeaderInto(frame, flags, status, id, frame.length - HEADER_LENGTH);
  return frame;
}

function writeHeaderInto(
  buf: Buffer,
  flags: number,
  status: number,
  id: bigint | number,
  bodyLength: number,
): void {
  buf[0] = MAGIC >>> 8;
  buf[1] = MAGIC & 0xff;
  buf[FLAG_OFFSET] = flags;
  buf[STATUS_OFFSET] = status;
  if (typeof id === "number") {
    // Two 32-bit halves: no bigint made per call (a call id is a non-negative integer below 2^53).
    buf.writeUInt32BE(Math.floor(id / TWO_TO_32), ID_OFFSET);
    buf.writeUInt32BE(id >>> 0, ID_OFFSET + 4);
  } else {
    buf.writeBigInt64BE(BigInt.asIntN(64, id), ID_OFFSET);
  }
  buf.writeInt32BE(bodyLength, LENGTH_OFFSET);
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

/** Ids below this are exact as a number: the high 32-bit word is at most 21 bits. */
const EXACT_HIGH_WORDS = 2 ** 21;

/**
 * A peer's request id, to be echoed in its answer: a number when it is exact as one (a consumer's
 * sequence of ids, below 2^53: no bigint read or written per call), else the bigint of
 * {@link readId}. Either writes back the same 64 bits.
 */
export function readRequestId(frame: Buffer): bigint | number {
  const high = frame.readUInt32BE(ID_OFFSET);
  return high < EXACT_HIGH_WORDS ? high * TWO_TO_32 + frame.readUInt32BE(ID_OFFSET + 4) : readId(frame);
}

/**
 * The id of a response as a number: exact for the ids a client gives its calls (a sequence below
 * 2^53), and never equal to one of them for any other id (negative, or rounded at 2^53 and above),
 * so a stray answer finds no call. Reading it makes no bigint.
 */
export function readCallId(frame: Buffer): number {
  return frame.readInt32BE(ID_OFFSET) * TWO_TO_32 + frame.readUInt32BE(ID_OFFSET + 4);
}

export function readBodyLength(frame: Buffer): number {
  return frame.readInt32BE(LENGTH_OFFSET);
}

/** The body of a whole frame, sharing its memory. */
export function bodyOf(frame: Buffer): Buffer {
  return frame.subarray(HEADER_LENGTH);
}
