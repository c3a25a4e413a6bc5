import {
  type Attachments,
  BizError,
  Code,
  DUBBO_PROTOCOL_VERSION,
  type JavaType,
  RpcError,
} from "../../../core/index.js";
import type { ObjectInput, Serialization } from "../../../serialize/index.js";
import { HEADER_LENGTH } from "../framing/index.js";
import { type BodyOutputSlot, toAttachmentRecord } from "./body-output.js";
import { KeptInput } from "./kept-input.js";

/** The first value of a response body (Java's `DubboCodec.RESPONSE_*`), written as a byte (a Hessian int). */
export const ResponseFlag = {
  WITH_EXCEPTION: 0,
  VALUE: 1,
  NULL_VALUE: 2,
  WITH_EXCEPTION_WITH_ATTACHMENTS: 3,
  VALUE_WITH_ATTACHMENTS: 4,
  NULL_VALUE_WITH_ATTACHMENTS: 5,
} as const;

const VERSION_ONLY: Attachments = Object.freeze({ dubbo: DUBBO_PROTOCOL_VERSION });

function withProtocolVersion(attachments: Attachments): Attachments {
  // Java's encodeResponseData always adds `dubbo` to the attachments it writes.
  for (const _ in attachments) return { ...attachments, dubbo: DUBBO_PROTOCOL_VERSION };
  return VERSION_ONLY;
}

/**
 * A successful call's body: flag 1 (or 2 for null) then the value written with the method's return
 * type; with `attach` (the request's version supports it) flags 4/5 and the attachments after.
 */
export function encodeValueResponse(
  slot: BodyOutputSlot,
  value: unknown,
  returnType: JavaType | undefined,
  attach: boolean,
  attachments: Attachments,
): Buffer {
  return encodeValueResponseFrame(slot, value, returnType, attach, attachments).subarray(HEADER_LENGTH);
}

/**
 * `{ dubbo: "2.0.2" }` encoded once per slot (per serialization), the attachments of nearly every
 * response; a map of one string, so it may be spliced into any body.
 */
const versionOnlyBytes = new WeakMap<BodyOutputSlot, Buffer>();

function versionOnlyOf(slot: BodyOutputSlot): Buffer {
  let bytes = versionOnlyBytes.get(slot);
  if (bytes === undefined) {
    bytes = slot.encodeOnce([VERSION_ONLY]);
    versionOnlyBytes.set(slot, bytes);
  }
  return bytes;
}

/** {@link encodeValueResponse} after 16 bytes left for the frame header (an `OkReply` with `framed`). */
export function encodeValueResponseFrame(
  slot: BodyOutputSlot,
  value: unknown,
  returnType: JavaType | undefined,
  attach: boolean,
  attachments: Attachments,
): Buffer {
  const sent = attach ? withProtocolVersion(attachments) : undefined;
  const versionOnly = sent === VERSION_ONLY ? versionOnlyOf(slot) : undefined;
  const output = slot.take(true);
  let failed = true;
  try {
    if (value === null || value === undefined) {
      output.writeValue(attach ? ResponseFlag.NULL_VALUE_WITH_ATTACHMENTS : ResponseFlag.NULL_VALUE);
    } else {
      output.writeValue(attach ? ResponseFlag.VALUE_WITH_ATTACHMENTS : ResponseFlag.VALUE);
      output.writeValue(value, returnType?.kind === "void" ? undefined : returnType, "result");
    }
    if (versionOnly !== undefined) output.writeBytes(versionOnly);
    else if (sent !== undefined) output.writeValue(sent, undefined, "attachments");
    const frame = output.finish();
    failed = false;
    return frame;
  } finally {
    slot.give(output, failed);
  }
}

/** A provider exception's body: flag 0 (3 with attachments) then the Throwable. */
export function encodeExceptionResponse(
  slot: BodyOutputSlot,
  error: Error,
  attach: boolean,
  attachments: Attachments,
): Buffer {
  const output = slot.take(false);
  let failed = true;
  try {
    output.writeValue(attach ? ResponseFlag.WITH_EXCEPTION_WITH_ATTACHMENTS : ResponseFlag.WITH_EXCEPTION);
    output.writeValue(error, undefined, "exception");
    if (attach) output.writeValue(withProtocolVersion(attachments), undefined, "attachments");
    const body = output.finish();
    failed = false;
    return body;
  } finally {
    slot.give(output, failed);
  }
}

export interface DecodedResponse {
  readonly value: unknown;
  /** Set for flags 0 and 3: the provider's exception. */
  readonly exception: BizError | undefined;
  readonly attachments: Attachments;
}

const NO_ATTACHMENTS: Attachments = Object.freeze({});

function asBizError(value: unknown): BizError {
  if (value instanceof BizError) return value;
  if (value instanceof Error) return new BizError(value.message, { cause: value });
  // A serialization without Java objects (JSON) hands the Throwable over as its fields.
  const fields = value as { message?: unknown; "@type"?: unknown } | null;
  if (typeof fields === "object" && fields !== null && typeof fields.message === "string") {
    return new BizError(
      fields.message,
      typeof fields["@type"] === "string" ? { javaClass: fields["@type"] } : {},
    );
  }
  return new BizError(`the provider answered with an exception that is not a Throwable: ${String(value)}`);
}

/** `{ dubbo: "2.0.2" }` as each serialization writes it, to recognise the attachments of nearly every response. */
const versionOnlyIn = new WeakMap<Serialization, Buffer>();

function versionOnlyBytesIn(serialization: Serialization): Buffer {
  let bytes = versionOnlyIn.get(serialization);
  if (bytes === undefined) {
    const output = serialization.createOutput();
    output.writeValue(VERSION_ONLY);
    bytes = Buffer.from(output.finish());
    versionOnlyIn.set(serialization, bytes);
  }
  return bytes;
}

/**
 * The attachments that end a response. When they are the very bytes of `{ dubbo: "2.0.2" }` (all a
 * provider adds unless the user set some), the shared frozen record stands for them: no map is
 * decoded and copied per response.
 */
function readAttachments(serialization: Serialization, reader: ObjectInput, body: Buffer): Attachments {
  const versionOnly = versionOnlyBytesIn(serialization);
  const at = reader.offset;
  if (
    reader.remaining === versionOnly.length &&
    body.compare(versionOnly, 0, versionOnly.length, at, at + versionOnly.length) === 0
  ) {
    return VERSION_ONLY;
  }
  return toAttachmentRecord(reader.readValue());
}

/**
 * Java's `DecodeableRpcResult.decode`: the flag picks which of value, exception, attachments follow.
 * `inputs` (one per invoker) lends the input, restarted per body and released after it: the values
 * read are the caller's own (strings, binaries and objects are copies; no view of `body` is kept).
 */
export function decodeResponseBody(
  serialization: Serialization,
  body: Buffer,
  returnType: JavaType | undefined,
  inputs: KeptInput = new KeptInput(serialization),
): DecodedResponse {
  const reader = inputs.take(body);
  try {
    return readResponse(serialization, reader, body, returnType);
  } finally {
    inputs.give(reader);
  }
}

function readResponse(
  serialization: Serialization,
  reader: ObjectInput,
  body: Buffer,
  returnType: JavaType | undefined,
): DecodedResponse {
  const flag = reader.readValue();
  const type = returnType?.kind === "void" ? undefined : returnType;
  switch (flag) {
    case ResponseFlag.NULL_VALUE:
      return { value: null, exception: undefined, attachments: NO_ATTACHMENTS };
    case ResponseFlag.VALUE:
      return { value: reader.readValue(type), exception: undefined, attachments: NO_ATTACHMENTS };
    case ResponseFlag.WITH_EXCEPTION:
      return { value: undefined, exception: asBizError(reader.readValue()), attachments: NO_ATTACHMENTS };
    case ResponseFlag.NULL_VALUE_WITH_ATTACHMENTS:
      return { value: null, exception: undefined, attachments: readAttachments(serialization, reader, body) };
    case ResponseFlag.VALUE_WITH_ATTACHMENTS: {
      const value = reader.readValue(type);
      return { value, exception: undefined, attachments: readAttachments(serialization, reader, body) };
    }
    case ResponseFlag.WITH_EXCEPTION_WITH_ATTACHMENTS: {
      const exception = asBizError(reader.readValue());
      return { value: undefined, exception, attachments: readAttachments(serialization, reader, body) };
    }
    default:
      throw new RpcError(
        `unknown response flag ${String(flag)} (expected 0 to 5): the body is not a Dubbo response`,
        Code.Internal,
      );
  }
}
