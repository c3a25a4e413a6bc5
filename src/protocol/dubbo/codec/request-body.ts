import { Code, type JavaType, RpcError } from "../../../core/index.js";
import { Hessian2Reader } from "../../../serialize/hessian2/index.js";
import { argLabel, type BodyWriterSlot, toAttachmentRecord } from "./body-writer.js";

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
    const { args, parameterTypes } = fields;
    for (let i = 0; i < args.length; i++) writer.writeValue(args[i], parameterTypes[i], argLabel(i));
    writer.writeValue(fields.attachments, undefined, "attachments");
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
  const args = new Array<unknown>(types.length);
  for (let i = 0; i < types.length; i++) args[i] = reader.readValue(types[i]);
  const attachments = reader.remaining > 0 ? toAttachmentRecord(reader.readValue()) : {};
  return { args, attachments };
}

export function createRequestReader(body: Buffer): Hessian2Reader {
  return new Hessian2Reader(body);
}
