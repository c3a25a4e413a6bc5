import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http2";
import type { Attachments } from "../../core/index.js";
import { decodeGrpcMessage, encodeGrpcMessage } from "./grpc-status.js";

// Header names of gRPC and of Dubbo's Triple (Java's `TripleHeaderEnum`).
export const GRPC_STATUS = "grpc-status";
export const GRPC_MESSAGE = "grpc-message";
export const GRPC_TIMEOUT = "grpc-timeout";
export const GRPC_ENCODING = "grpc-encoding";
export const GRPC_ACCEPT_ENCODING = "grpc-accept-encoding";
export const TRI_SERVICE_VERSION = "tri-service-version";
export const TRI_SERVICE_GROUP = "tri-service-group";
export const TRI_CONSUMER_APPNAME = "tri-consumer-appname";
/** Set on a response whose message is the provider's exception (3, Java's `RpcException.BIZ_EXCEPTION`). */
export const TRI_EXCEPTION_CODE = "tri-exception-code";
/** JSON map, percent-encoded, from each lower-cased attachment key back to its original case. */
const TRI_HEADER_CONVERT = "tri-header-convert";
export const BIZ_EXCEPTION_CODE = "3";

/** What Java's client sends, even in wrapper mode; the server takes any `application/grpc*`. */
export const GRPC_PROTO_CONTENT_TYPE = "application/grpc+proto";

const BINARY_SUFFIX = "-bin";

/** Headers that are the protocol's, never attachments (pseudo-headers start with `:`). */
const RESERVED: ReadonlySet<string> = new Set([
  GRPC_STATUS,
  GRPC_MESSAGE,
  "grpc-status-details-bin",
  GRPC_TIMEOUT,
  GRPC_ENCODING,
  GRPC_ACCEPT_ENCODING,
  TRI_SERVICE_VERSION,
  TRI_SERVICE_GROUP,
  TRI_CONSUMER_APPNAME,
  "tri-service-timeout",
  TRI_HEADER_CONVERT,
  TRI_EXCEPTION_CODE,
  "http-status",
  "content-type",
  "content-length",
  "te",
  "user-agent",
  "connection",
  "host",
]);

/** `:`, which starts the pseudo-headers (`:path`, `:status`, …). */
const PSEUDO_HEADER_MARK = 0x3a;

function isReserved(key: string): boolean {
  return key.charCodeAt(0) === PSEUDO_HEADER_MARK || RESERVED.has(key);
}

const NOTHING_OMITTED: ReadonlySet<string> = new Set();

/**
 * Attachments as headers, as Java's `StreamUtils.putHeaders` writes them: keys lower-cased (the
 * original case restored through `tri-header-convert`), strings, numbers and booleans as text,
 * bytes base64 under `{key}-bin`; other values (objects) cannot travel as headers and are left out,
 * as are the keys in `omit` (matched as given, before lower-casing).
 */
export function attachmentsToHeaders(
  attachments: Attachments,
  headers: OutgoingHttpHeaders,
  omit: ReadonlySet<string> = NOTHING_OMITTED,
): void {
  let converted: Record<string, string> | undefined;
  for (const key in attachments) {
    const value = attachments[key];
    if (value === undefined || value === null || omit.has(key)) continue;
    const lower = key.toLowerCase();
    if (isReserved(lower)) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      headers[lower] = String(value);
    } else if (typeof value === "bigint") {
      headers[lower] = value.toString();
    } else if (value instanceof Uint8Array) {
      headers[`${lower}${BINARY_SUFFIX}`] = Buffer.from(value).toString("base64").replace(/=+$/, "");
    } else {
      continue;
    }
    if (lower !== key) {
      converted ??= {};
      converted[lower] = key;
    }
  }
  if (converted !== undefined) headers[TRI_HEADER_CONVERT] = encodeGrpcMessage(JSON.stringify(converted));
}

/** The attachments a request's or response's headers carry (the inverse of {@link attachmentsToHeaders}). */
export function headersToAttachments(headers: IncomingHttpHeaders): Record<string, unknown> {
  const attachments: Record<string, unknown> = {};
  for (const key in headers) {
    if (isReserved(key)) continue;
    const value = headers[key];
    if (value === undefined) continue;
    addAttachment(attachments, key, Array.isArray(value) ? value.join(",") : value);
  }
  return withOriginalCase(attachments, headers);
}

/**
 * {@link headersToAttachments} of a header block read from its raw name/value list (the last
 * argument of node:http2's `stream`, `response` and `trailers` events), which costs less than
 * enumerating node's header object, a dictionary. A block naming one attachment twice is read
 * from the object, so node's rules for repeated headers apply as before.
 */
export function rawHeadersToAttachments(
  raw: readonly string[] | undefined,
  headers: IncomingHttpHeaders,
): Record<string, unknown> {
  if (raw === undefined) return headersToAttachments(headers);
  const attachments: Record<string, unknown> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i]!;
    if (isReserved(key)) continue;
    if (!addAttachment(attachments, key, raw[i + 1]!)) return headersToAttachments(headers);
  }
  return withOriginalCase(attachments, headers);
}

/** Sets one header as an attachment (`{key}-bin` as bytes); false when it replaced one of that name. */
function addAttachment(attachments: Record<string, unknown>, key: string, text: string): boolean {
  const binary = key.endsWith(BINARY_SUFFIX) && key.length > BINARY_SUFFIX.length;
  const name = binary ? key.slice(0, -BINARY_SUFFIX.length) : key;
  const fresh = !Object.hasOwn(attachments, name);
  attachments[name] = binary ? new Uint8Array(Buffer.from(text, "base64")) : text;
  return fresh;
}

function withOriginalCase(
  attachments: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): Record<string, unknown> {
  const convert = headers[TRI_HEADER_CONVERT];
  if (typeof convert === "string") restoreCase(attachments, convert);
  return attachments;
}

function restoreCase(attachments: Record<string, unknown>, convert: string): void {
  let map: unknown;
  try {
    map = JSON.parse(decodeGrpcMessage(convert));
  } catch {
    return; // A peer's malformed hint leaves the keys lower-case, as they arrived.
  }
  if (typeof map !== "object" || map === null) return;
  for (const [lower, original] of Object.entries(map)) {
    if (typeof original !== "string" || !(lower in attachments)) continue;
    attachments[original] = attachments[lower];
    delete attachments[lower];
  }
}

/** One header's value as a string (HTTP/2 may hand a repeated header over as an array). */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
