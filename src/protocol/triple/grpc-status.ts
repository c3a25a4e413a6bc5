import { Code } from "../../core/index.js";

/** `grpc-status` 0: the call succeeded. Every other value is one of our `Code`s (gRPC's numbers). */
export const GRPC_OK = 0;

/** A `grpc-status` value as a `Code`: gRPC's numbers are ours; anything else is `Unknown`. */
export function codeOfGrpcStatus(status: number): Code {
  return Number.isInteger(status) && status >= Code.Canceled && status <= Code.Unauthenticated
    ? (status as Code)
    : Code.Unknown;
}

/**
 * The code of a response that carries no `grpc-status` (a proxy's or a plain HTTP server's answer),
 * from its HTTP status, as gRPC's "HTTP to gRPC status code mapping" says.
 */
export function codeOfHttpStatus(httpStatus: number): Code {
  switch (httpStatus) {
    case 400:
      return Code.Internal;
    case 401:
      return Code.Unauthenticated;
    case 403:
      return Code.PermissionDenied;
    case 404:
      return Code.Unimplemented;
    case 429:
    case 502:
    case 503:
    case 504:
      return Code.Unavailable;
    default:
      return Code.Unknown;
  }
}

/** Whether a `grpc-message` byte is sent as itself: printable ASCII except `%`. */
function isPlain(byte: number): boolean {
  return byte >= 0x20 && byte <= 0x7e && byte !== 0x25;
}

/** `grpc-message` percent-encoding: UTF-8 bytes outside printable ASCII, and `%`, as `%XX`. */
export function encodeGrpcMessage(message: string): string {
  const bytes = Buffer.from(message, "utf8");
  let out = "";
  for (const byte of bytes) {
    out += isPlain(byte) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The inverse of {@link encodeGrpcMessage}; a `%` not followed by two hex digits stays as is. */
export function decodeGrpcMessage(encoded: string): string {
  if (!encoded.includes("%")) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const hex = encoded.slice(i + 1, i + 3);
    if (encoded[i] === "%" && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(encoded[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
