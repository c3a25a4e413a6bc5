import { Code, type JavaType, RpcError } from "../../../core/index.js";
import { Hessian2Reader } from "../../../serialize/hessian2/index.js";
import { argLabel, type BodyWriter, type BodyWriterSlot, toAttachmentRecord } from "./body-writer.js";

/**
 * The request body exactly as Java's `DubboCodec.encodeRequestData` writes it, every field a Hessian
 * value in this order: dubbo protocol version, path (the interface), service version ("0.0.0" when
 * none), method name, the JVM parameter descriptor (`Ljava/lang/String;I`), each argument written
 * with its declared Java type, then the attachments map.
 */
export interface RequestFields {
  readonly dubboVersion: string;
  readonly path: string;
  readonly version: string;
  readonly method: string;
  readonly descriptor: string;
  readonly parameterTypes: readonly JavaType[];
  readonly args: readonly unknown[];
  readonly attachments: Readonly<Record<string, unknown>>;
}

export function encodeRequestBody(slot: BodyWriterSlot, fields: RequestFields): Buffer {
  const writer = slot.take();
  try {
    writer
      .writeValue(fields.dubboVersion)
      .writeValue(fields.path)
      .writeValue(fields.version)
      .writeValue(fields.method)
      .writeValue(fields.descriptor);
    writeArgs(writer, fields.parameterTypes, fields.args);
    writer.writeValue(fields.attachments, undefined, "attachments");
    return writer.toBuffer();
  } finally {
    slot.give(writer);
  }
}

/** Each argument as its declared type; an Object argument forwarded as decoded keeps its Java type. */
function writeArgs(writer: BodyWriter, parameterTypes: readonly JavaType[], args: readonly unknown[]): void {
  for (let i = 0; i < args.length; i++) writer.writeSlot(args, i, parameterTypes[i], argLabel(i));
}

/**
 * The five strings that open every request of one method (dubbo version, path, version, method,
 * descriptor), encoded once for {@link encodeRequestFrame}.
 */
export function encodeRequestHead(
  slot: BodyWriterSlot,
  fields: Pick<RequestFields, "dubboVersion" | "path" | "version" | "method" | "descriptor">,
): Buffer {
  return slot.encodeOnce([
    fields.dubboVersion,
    fields.path,
    fields.version,
    fields.method,
    fields.descriptor,
  ]);
}

/** An attachments map encoded once (the constant attachments of a method's calls). */
export function encodeAttachments(
  slot: BodyWriterSlot,
  attachments: Readonly<Record<string, unknown>>,
): Buffer {
  return slot.encodeOnce([attachments]);
}

/**
 * The same bytes as {@link encodeRequestBody}, after 16 bytes left for the frame header, from the
 * method's encoded head and either encoded attachments or an attachments record.
 */
export function encodeRequestFrame(
  slot: BodyWriterSlot,
  head: Uint8Array,
  parameterTypes: readonly JavaType[],
  args: readonly unknown[],
  attachments: Uint8Array | Readonly<Record<string, unknown>>,
): Buffer {
  const writer = slot.take();
  try {
    writer.reserveHeader().writeEncoded(head);
    writeArgs(writer, parameterTypes, args);
    if (attachments instanceof Uint8Array) writer.writeEncoded(attachments);
    else writer.writeValue(attachments, undefined, "attachments");
    return writer.toBuffer();
  } finally {
    slot.give(writer);
  }
}

/** The part of a request read before the argument types are known. */
export interface RequestHead {
  readonly dubboVersion: string;
  readonly path: string;
  readonly version: string;
  readonly method: string;
  readonly descriptor: string;
}

function readString(reader: Hessian2Reader, what: string): string {
  const value = reader.readValue();
  if (value === null) return "";
  if (typeof value !== "string") {
    throw new RpcError(
      `the request's ${what} is not a string (got ${typeof value}): not a Dubbo request body`,
      Code.InvalidArgument,
    );
  }
  return value;
}

/** Starts decoding a request: the reader stays positioned at the first argument. */
export function readRequestHead(reader: Hessian2Reader): RequestHead {
  return {
    dubboVersion: readString(reader, "dubbo version"),
    path: readString(reader, "path"),
    version: readString(reader, "service version"),
    method: readString(reader, "method name"),
    descriptor: readString(reader, "parameter descriptor"),
  };
}

/** Reads the arguments with their types (one per type), then the attachments (absent = none). */
export function readRequestTail(
  reader: Hessian2Reader,
  types: readonly JavaType[],
): { readonly args: unknown[]; readonly attachments: Record<string, unknown> } {
  const args = readRequestArgs(reader, types);
  return { args, attachments: readRequestAttachments(reader) };
}

/**
 * The arguments, one per type; the reader is left at the attachments. An argument whose JS value
 * would re-encode as another Java type (a Long sent for an Object parameter) keeps its type in the
 * array's slot types, so `$echo` and pass-through calls answer it as the same Java type.
 */
export function readRequestArgs(reader: Hessian2Reader, types: readonly JavaType[]): unknown[] {
  const args = new Array<unknown>(types.length);
  for (let i = 0; i < types.length; i++) reader.readSlot(args, i, types[i]);
  return args;
}

/** The attachments that end a request (absent = none). */
export function readRequestAttachments(reader: Hessian2Reader): Record<string, unknown> {
  return reader.remaining > 0 ? toAttachmentRecord(reader.readValue()) : {};
}

export function createRequestReader(body: Buffer, offset = 0): Hessian2Reader {
  return new Hessian2Reader(body, undefined, offset);
}
