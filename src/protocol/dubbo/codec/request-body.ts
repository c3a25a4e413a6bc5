import { Code, type JavaType, RpcError, slotWriteType } from "../../../core/index.js";
import type { ObjectInput, ObjectOutput } from "../../../serialize/index.js";
import { HEADER_LENGTH } from "../framing/index.js";
import { type BodyOutputSlot, toAttachmentRecord } from "./body-output.js";

/**
 * The request body exactly as Java's `DubboCodec.encodeRequestData` writes it, every field a value
 * of the body's serialization in this order: dubbo protocol version, path (the interface), service
 * version ("0.0.0" when none), method name, the JVM parameter descriptor (`Ljava/lang/String;I`),
 * each argument written with its declared Java type, then the attachments map.
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

export function encodeRequestBody(slot: BodyOutputSlot, fields: RequestFields): Buffer {
  const head = encodeRequestHead(slot, fields);
  const frame = encodeRequestFrame(slot, head, fields.parameterTypes, fields.args, fields.attachments);
  return frame.subarray(HEADER_LENGTH);
}

/** Path labels for encode errors (`args[0]`), made once. */
const ARG_LABELS = Array.from({ length: 16 }, (_, i) => `args[${i}]`);

function argLabel(index: number): string {
  return ARG_LABELS[index] ?? `args[${index}]`;
}

/** Each argument as its declared type; an Object argument forwarded as decoded keeps its Java type. */
function writeArgs(output: ObjectOutput, types: readonly JavaType[], args: readonly unknown[]): void {
  for (let i = 0; i < args.length; i++)
    output.writeValue(args[i], slotWriteType(args, i, types[i]), argLabel(i));
}

/**
 * The five strings that open every request of one method (dubbo version, path, version, method,
 * descriptor), encoded once for {@link encodeRequestFrame}.
 */
export function encodeRequestHead(
  slot: BodyOutputSlot,
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
  slot: BodyOutputSlot,
  attachments: Readonly<Record<string, unknown>>,
): Buffer {
  return slot.encodeOnce([attachments]);
}

/** Constant attachments (a frozen record of scalars) with their map, encoded alone once. */
export interface EncodedRecord {
  readonly record: Readonly<Record<string, unknown>>;
  readonly bytes: Buffer;
}

/**
 * A request's attachments map as a reference's constant attachments and the call's own, none of
 * whose keys the constant ones have: sent as the one map that merges them, the constant entries
 * spliced from their bytes and only the call's own encoded (no merged copy per call).
 */
export type AttachmentParts = readonly [EncodedRecord, Readonly<Record<string, unknown>>];

function isAttachmentParts(
  attachments: Readonly<Record<string, unknown>> | AttachmentParts,
): attachments is AttachmentParts {
  return Array.isArray(attachments);
}

function writeAttachmentParts(output: ObjectOutput, [constants, own]: AttachmentParts): void {
  if (output.writeMerged !== undefined) output.writeMerged(constants.bytes, own, "attachments");
  else output.writeValue({ ...constants.record, ...own }, undefined, "attachments");
}

/**
 * A whole request after 16 bytes left for the frame header, from the method's encoded head and
 * either encoded attachments, an attachments record or its parts.
 */
export function encodeRequestFrame(
  slot: BodyOutputSlot,
  head: Uint8Array,
  parameterTypes: readonly JavaType[],
  args: readonly unknown[],
  attachments: Uint8Array | Readonly<Record<string, unknown>> | AttachmentParts,
): Buffer {
  const output = slot.take(true);
  let failed = true;
  try {
    output.writeBytes(head);
    writeArgs(output, parameterTypes, args);
    if (attachments instanceof Uint8Array) output.writeBytes(attachments);
    else if (isAttachmentParts(attachments)) writeAttachmentParts(output, attachments);
    else output.writeValue(attachments, undefined, "attachments");
    const frame = output.finish();
    failed = false;
    return frame;
  } finally {
    slot.give(output, failed);
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

function readString(input: ObjectInput, what: string): string {
  const value = input.readValue();
  if (value === null) return "";
  if (typeof value !== "string") {
    throw new RpcError(
      `the request's ${what} is not a string (got ${typeof value}): not a Dubbo request body`,
      Code.InvalidArgument,
    );
  }
  return value;
}

/** Starts decoding a request: the input stays positioned at the first argument. */
export function readRequestHead(input: ObjectInput): RequestHead {
  return {
    dubboVersion: readString(input, "dubbo version"),
    path: readString(input, "path"),
    version: readString(input, "service version"),
    method: readString(input, "method name"),
    descriptor: readString(input, "parameter descriptor"),
  };
}

/** Reads the arguments with their types (one per type), then the attachments (absent = none). */
export function readRequestTail(
  input: ObjectInput,
  types: readonly JavaType[],
): { readonly args: unknown[]; readonly attachments: Record<string, unknown> } {
  const args = readRequestArgs(input, types);
  return { args, attachments: readRequestAttachments(input) };
}

/**
 * The arguments, one per type; the input is left at the attachments. An argument whose JS value
 * would re-encode as another Java type (a Long sent for an Object parameter) keeps its type in the
 * array's slot types, so `$echo` and pass-through calls answer it as the same Java type.
 */
export function readRequestArgs(input: ObjectInput, types: readonly JavaType[]): unknown[] {
  const args = new Array<unknown>(types.length);
  if (input.readSlot !== undefined) {
    for (let i = 0; i < types.length; i++) input.readSlot(args, i, types[i]);
  } else {
    for (let i = 0; i < types.length; i++) args[i] = input.readValue(types[i]);
  }
  return args;
}

/** The attachments that end a request (absent = none). */
export function readRequestAttachments(input: ObjectInput): Record<string, unknown> {
  if (input.remaining === 0) return {};
  return input.readRecord?.() ?? toAttachmentRecord(input.readValue());
}
