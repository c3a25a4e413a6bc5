import {
  type Attachments,
  BizError,
  Code,
  DUBBO_PROTOCOL_VERSION,
  type JavaType,
  RpcError,
} from "../../../core/index.js";
import { Hessian2Reader } from "../../../serialize/hessian2/index.js";
import { type BodyWriterSlot, toAttachmentRecord } from "./body-writer.js";

/** The first value of a response body (Java's `DubboCodec.RESPONSE_*`), written as a Hessian int. */
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
  slot: BodyWriterSlot,
  value: unknown,
  returnType: JavaType | undefined,
  attach: boolean,
  attachments: Attachments,
): Buffer {
  return writeValueResponse(slot, false, value, returnType, attach, attachments);
}

/** {@link encodeValueResponse} after 16 bytes left for the frame header (an `OkReply` with `framed`). */
export function encodeValueResponseFrame(
  slot: BodyWriterSlot,
  value: unknown,
  returnType: JavaType | undefined,
  attach: boolean,
  attachments: Attachments,
): Buffer {
  return writeValueResponse(slot, true, value, returnType, attach, attachments);
}

/** `{ dubbo: "2.0.2" }` as Hessian bytes, the attachments of nearly every response. */
let versionOnlyBytes: Buffer | undefined;

function writeValueResponse(
  slot: BodyWriterSlot,
  framed: boolean,
  value: unknown,
  returnType: JavaType | undefined,
  attach: boolean,
  attachments: Attachments,
): Buffer {
  const sent = attach ? withProtocolVersion(attachments) : undefined;
  if (sent === VERSION_ONLY) versionOnlyBytes ??= slot.encodeOnce([VERSION_ONLY]);
  const writer = slot.take();
  try {
    if (framed) writer.reserveHeader();
    if (value === null || value === undefined) {
      writer.writeValue(attach ? ResponseFlag.NULL_VALUE_WITH_ATTACHMENTS : ResponseFlag.NULL_VALUE);
    } else {
      writer.writeValue(attach ? ResponseFlag.VALUE_WITH_ATTACHMENTS : ResponseFlag.VALUE);
      writer.writeValue(value, returnType?.kind === "void" ? undefined : returnType, "result");
    }
    if (sent === VERSION_ONLY && versionOnlyBytes !== undefined) writer.writeEncoded(versionOnlyBytes);
    else if (sent !== undefined) writer.writeValue(sent, undefined, "attachments");
    return writer.toBuffer();
  } finally {
    slot.give(writer);
  }
}

/** A provider exception's body: flag 0 (3 with attachments) then the Throwable. */
export function encodeExceptionResponse(
  slot: BodyWriterSlot,
  error: Error,
  attach: boolean,
  attachments: Attachments,
): Buffer {
  const writer = slot.take();
  try {
    writer.writeValue(attach ? ResponseFlag.WITH_EXCEPTION_WITH_ATTACHMENTS : ResponseFlag.WITH_EXCEPTION);
    writer.writeValue(error, undefined, "exception");
    if (attach) writer.writeValue(withProtocolVersion(attachments), undefined, "attachments");
    return writer.toBuffer();
  } finally {
    slot.give(writer);
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
  return new BizError(`the provider answered with an exception that is not a Throwable: ${String(value)}`);
}

/** Java's `DecodeableRpcResult.decode`: the flag picks which of value, exception, attachments follow. */
export function decodeResponseBody(body: Buffer, returnType: JavaType | undefined): DecodedResponse {
  const reader = new Hessian2Reader(body);
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
      return { value: null, exception: undefined, attachments: toAttachmentRecord(reader.readValue()) };
    case ResponseFlag.VALUE_WITH_ATTACHMENTS: {
      const value = reader.readValue(type);
      return { value, exception: undefined, attachments: toAttachmentRecord(reader.readValue()) };
    }
    case ResponseFlag.WITH_EXCEPTION_WITH_ATTACHMENTS: {
      const exception = asBizError(reader.readValue());
      return { value: undefined, exception, attachments: toAttachmentRecord(reader.readValue()) };
    }
    default:
      throw new RpcError(
        `unknown response flag ${String(flag)} (expected 0 to 5): the body is not a Dubbo response`,
        Code.Internal,
      );
  }
}
