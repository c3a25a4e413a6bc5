import { Code, RpcError } from "../../core/index.js";

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
 * buffer of the size the fields' {@link fieldSize}s add up to.
 */
class FieldWriter {
  readonly #out: Buffer;
  #at = 0;

  constructor(size: number) {
    this.#out = Buffer.allocUnsafe(size);
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
const encodedNames = new Map<string, Buffer>();
const MAX_ENCODED_NAMES = 1024;

function utf8(text: string): Buffer {
  let bytes = encodedNames.get(text);
  if (bytes === undefined) {
    bytes = Buffer.from(text, "utf8");
    if (encodedNames.size < MAX_ENCODED_NAMES) encodedNames.set(text, bytes);
  }
  return bytes;
}

export function encodeRequestWrapper(wrapper: RequestWrapper): Buffer {
  const serializeType = utf8(wrapper.serializeType);
  const argTypes = wrapper.argTypes.map(utf8);
  let size = fieldSize(1, serializeType);
  for (const arg of wrapper.args) size += fieldSize(2, arg);
  for (const type of argTypes) size += fieldSize(3, type);
  const writer = new FieldWriter(size).add(1, serializeType);
  for (const arg of wrapper.args) writer.add(2, arg);
  for (const type of argTypes) writer.add(3, type);
  return writer.toBuffer();
}

export function encodeResponseWrapper(wrapper: ResponseWrapper): Buffer {
  const serializeType = utf8(wrapper.serializeType);
  const type = utf8(wrapper.type);
  const size =
    fieldSize(1, serializeType) +
    (wrapper.data === undefined ? 0 : fieldSize(2, wrapper.data)) +
    fieldSize(3, type);
  const writer = new FieldWriter(size).add(1, serializeType);
  if (wrapper.data !== undefined) writer.add(2, wrapper.data);
  return writer.add(3, type).toBuffer();
}

/** Visits each length-delimited field of `bytes`; anything else is not one of the two wrappers. */
function readFields(bytes: Uint8Array, what: string, visit: (field: number, value: Buffer) => void): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= buffer.length) throw malformed(what, "it ends inside a varint");
      const byte = buffer[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw malformed(what, "a varint is longer than 5 bytes");
  };
  while (at < buffer.length) {
    const tag = varint();
    const wireType = tag & 7;
    if (wireType !== LENGTH_DELIMITED) {
      throw malformed(
        what,
        `field ${Math.floor(tag / 8)} has wire type ${wireType} (every field is length-delimited, 2)`,
      );
    }
    const length = varint();
    if (at + length > buffer.length) throw malformed(what, `a field of ${length} bytes runs past the end`);
    visit(Math.floor(tag / 8), buffer.subarray(at, at + length));
    at += length;
  }
}

function malformed(what: string, reason: string): RpcError {
  return new RpcError(
    `the ${what} is not a Triple wrapper message: ${reason}. Is the peer in IDL (protobuf) mode?`,
    Code.Internal,
  );
}

/** Reads a request wrapper; unknown field numbers are skipped (protobuf's rule). */
export function decodeRequestWrapper(bytes: Uint8Array): RequestWrapper {
  let serializeType = "";
  const args: Buffer[] = [];
  const argTypes: string[] = [];
  readFields(bytes, "request", (field, value) => {
    if (field === 1) serializeType = value.toString("utf8");
    else if (field === 2) args.push(value);
    else if (field === 3) argTypes.push(value.toString("utf8"));
  });
  return { serializeType, args, argTypes };
}

export function decodeResponseWrapper(bytes: Uint8Array): ResponseWrapper {
  let serializeType = "";
  let data: Buffer | undefined;
  let type = "";
  readFields(bytes, "response", (field, value) => {
    if (field === 1) serializeType = value.toString("utf8");
    else if (field === 2) data = value;
    else if (field === 3) type = value.toString("utf8");
  });
  return { serializeType, data, type };
}
