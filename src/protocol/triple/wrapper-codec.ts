import { boundedMemo, Code, RpcError } from "../../core/index.js";

// Wrapper mode's two messages (Java's `triple_wrapper.proto`, written by the hand-made codec in
// `TripleCustomerProtocolWrapper`): every field is length-delimited (wire type 2).
//   TripleRequestWrapper  { string serializeType = 1; repeated bytes args = 2; repeated string argTypes = 3; }
//   TripleResponseWrapper { string serializeType = 1; bytes data = 2; string type = 3; }

/** Hessian 2's name inside the wrappers (Java's `TripleConstants.HESSIAN4`). */
export const WRAPPER_HESSIAN2 = "hessian4";

export interface RequestWrapper {
  readonly serializeType: string;
  /** Each argument serialized on its own. */
  readonly args: readonly Uint8Array[];
  /** Java class names (`java.lang.String`, `int`, `[Ljava.lang.String;`), not descriptors. */
  readonly argTypes: readonly string[];
}

export interface ResponseWrapper {
  readonly serializeType: string;
  /** Absent when Java had no bytes to send. */
  readonly data: Uint8Array | undefined;
  /** The Java class name of the method's return type. */
  readonly type: string;
}

const LENGTH_DELIMITED = 2;

function varintLength(value: number): number {
  let length = 1;
  for (let v = value >>> 7; v !== 0; v >>>= 7) length++;
  return length;
}

/** The bytes of one length-delimited field: its tag, its length, then `bytes`. */
function fieldSize(field: number, bytes: Uint8Array): number {
  return varintLength((field << 3) | LENGTH_DELIMITED) + varintLength(bytes.length) + bytes.length;
}

/**
 * Writes fields in the order given, as Java writes them (1, then every 2, then every 3), into one
 * buffer of the size the fields' {@link fieldSize}s add up to, after `headroom` bytes left for
 * the caller (a gRPC message prefix written in place, so the message is not copied to be framed).
 */
class FieldWriter {
  readonly #out: Buffer;
  #at: number;

  constructor(size: number, headroom: number) {
    this.#out = Buffer.allocUnsafe(headroom + size);
    this.#at = headroom;
  }

  #varint(value: number): void {
    let v = value;
    while (v > 0x7f) {
      this.#out[this.#at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#out[this.#at++] = v;
  }

  add(field: number, bytes: Uint8Array): this {
    this.#varint((field << 3) | LENGTH_DELIMITED);
    this.#varint(bytes.length);
    this.#out.set(bytes, this.#at);
    this.#at += bytes.length;
    return this;
  }

  toBuffer(): Buffer {
    return this.#out;
  }
}

/**
 * The UTF-8 bytes of the wrappers' own strings (the serializer's name, Java class names), encoded
 * once each: every call names the same few. Bounded, so a generic caller naming ever new classes
 * cannot grow it without end; past the bound a name is encoded per call.
 */
const utf8 = boundedMemo(1024, (text: string): Buffer => Buffer.from(text, "utf8"));

/** The bounds of {@link textOf}'s table: names in all, as for {@link utf8}, and names of one length compared. */
const NAMES_LIMIT = 1024;
const NAMES_PER_LENGTH = 8;
/** Decoded names by their length in bytes, each with the bytes it was decoded from. */
const namesByLength = new Map<number, { readonly bytes: Buffer; readonly text: string }[]>();
let namesKnown = 0;

/**
 * The text of a wrapper's name field (the serializer's name, a class name), decoded once per name:
 * every answer names the same few, and comparing a short field with bytes seen before in JS costs a
 * fraction of UTF-8 decoding it natively (`Buffer#toString` is a call into C++ for every field).
 * Bounded as {@link utf8}, and to a few names per length so a field is compared a few times at
 * most: past the bounds a new name is decoded per call.
 */
function textOf(buffer: Buffer, start: number, end: number): string {
  const candidates = namesByLength.get(end - start);
  if (candidates !== undefined) {
    for (const known of candidates) if (sameBytes(known.bytes, buffer, start)) return known.text;
  }
  const text = buffer.toString("utf8", start, end);
  if (namesKnown < NAMES_LIMIT && (candidates === undefined || candidates.length < NAMES_PER_LENGTH)) {
    namesKnown++;
    const entry = { bytes: Buffer.from(buffer.subarray(start, end)), text };
    if (candidates === undefined) namesByLength.set(end - start, [entry]);
    else candidates.push(entry);
  }
  return text;
}

/** Whether `buffer` holds `known`'s bytes from `start` on. */
function sameBytes(known: Buffer, buffer: Buffer, start: number): boolean {
  for (let i = 0; i < known.length; i++) if (known[i] !== buffer[start + i]) return false;
  return true;
}

/** The request's bytes, after `headroom` unwritten bytes (see {@link FieldWriter}). */
export function encodeRequestWrapper(wrapper: RequestWrapper, headroom = 0): Buffer {
  const serializeType = utf8(wrapper.serializeType);
  const argTypes = wrapper.argTypes.map(utf8);
  let size = fieldSize(1, serializeType);
  for (const arg of wrapper.args) size += fieldSize(2, arg);
  for (const type of argTypes) size += fieldSize(3, type);
  const writer = new FieldWriter(size, headroom).add(1, serializeType);
  for (const arg of wrapper.args) writer.add(2, arg);
  for (const type of argTypes) writer.add(3, type);
  return writer.toBuffer();
}

/** The response's bytes, after `headroom` unwritten bytes (see {@link FieldWriter}). */
export function encodeResponseWrapper(wrapper: ResponseWrapper, headroom = 0): Buffer {
  const serializeType = utf8(wrapper.serializeType);
  const type = utf8(wrapper.type);
  const size =
    fieldSize(1, serializeType) +
    (wrapper.data === undefined ? 0 : fieldSize(2, wrapper.data)) +
    fieldSize(3, type);
  const writer = new FieldWriter(size, headroom).add(1, serializeType);
  if (wrapper.data !== undefined) writer.add(2, wrapper.data);
  return writer.add(3, type).toBuffer();
}

/** Where a {@link readFields} pass is in its bytes. */
interface FieldCursor {
  readonly buffer: Buffer;
  at: number;
}

function readVarint(cursor: FieldCursor, what: string): number {
  const { buffer } = cursor;
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (cursor.at >= buffer.length) throw malformed(what, "it ends inside a varint");
    const byte = buffer[cursor.at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return value;
  }
  throw malformed(what, "a varint is longer than 5 bytes");
}

/** Takes one field of a message into `state`: its number and its bytes' place in `buffer`. */
type FieldVisitor<S> = (state: S, field: number, buffer: Buffer, start: number, end: number) => void;

/**
 * Visits each length-delimited field of `bytes` as its place in the buffer (a visitor slices only
 * the fields it keeps as bytes: `subarray` makes a Buffer, which costs more than the field's
 * reading); anything else is not one of the two wrappers.
 */
function readFields<S>(bytes: Uint8Array, what: string, state: S, visit: FieldVisitor<S>): void {
  const cursor: FieldCursor = {
    buffer: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    at: 0,
  };
  const { buffer } = cursor;
  while (cursor.at < buffer.length) {
    const tag = readVarint(cursor, what);
    const wireType = tag & 7;
    if (wireType !== LENGTH_DELIMITED) {
      throw malformed(
        what,
        `field ${Math.floor(tag / 8)} has wire type ${wireType} (every field is length-delimited, 2)`,
      );
    }
    const length = readVarint(cursor, what);
    const at = cursor.at;
    if (at + length > buffer.length) throw malformed(what, `a field of ${length} bytes runs past the end`);
    visit(state, Math.floor(tag / 8), buffer, at, at + length);
    cursor.at = at + length;
  }
}

function malformed(what: string, reason: string): RpcError {
  return new RpcError(
    `the ${what} is not a Triple wrapper message: ${reason}. Is the peer in IDL (protobuf) mode?`,
    Code.Internal,
  );
}

interface MutableRequestWrapper {
  serializeType: string;
  readonly args: Buffer[];
  readonly argTypes: string[];
}

const visitRequestField: FieldVisitor<MutableRequestWrapper> = (wrapper, field, buffer, start, end) => {
  if (field === 1) wrapper.serializeType = textOf(buffer, start, end);
  else if (field === 2) wrapper.args.push(buffer.subarray(start, end));
  else if (field === 3) wrapper.argTypes.push(textOf(buffer, start, end));
};

/** Reads a request wrapper; unknown field numbers are skipped (protobuf's rule). */
export function decodeRequestWrapper(bytes: Uint8Array): RequestWrapper {
  const wrapper: MutableRequestWrapper = { serializeType: "", args: [], argTypes: [] };
  readFields(bytes, "request", wrapper, visitRequestField);
  return wrapper;
}

interface MutableResponseWrapper {
  serializeType: string;
  data: Buffer | undefined;
  type: string;
}

const visitResponseField: FieldVisitor<MutableResponseWrapper> = (wrapper, field, buffer, start, end) => {
  if (field === 1) wrapper.serializeType = textOf(buffer, start, end);
  else if (field === 2) wrapper.data = buffer.subarray(start, end);
  else if (field === 3) wrapper.type = textOf(buffer, start, end);
};

export function decodeResponseWrapper(bytes: Uint8Array): ResponseWrapper {
  const wrapper: MutableResponseWrapper = { serializeType: "", data: undefined, type: "" };
  readFields(bytes, "response", wrapper, visitResponseField);
  return wrapper;
}
