/**
 * The few bodies the exchange layer writes itself: event data (heartbeat `null`, read-only `"R"`)
 * and the error message of a non-OK response. The protocol layer may supply its serialization's
 * codec; the default writes Hessian 2 (id 2) as Java does, so it needs nothing from src/serialize.
 */
export interface EventCodec {
  /** Serialization id written in the header of events and error responses. */
  readonly serializationId: number;
  encodeEvent(data: string | null): Buffer;
  /**
   * `null`, a string, or undefined when the body is something else. `serializationId` is the
   * frame's: a peer writes its events in its own serialization (Java: the URL's).
   */
  decodeEvent(body: Buffer, serializationId: number): string | null | undefined;
  encodeErrorMessage(message: string): Buffer;
  /** The message of a non-OK response, in the frame's serialization. */
  decodeErrorMessage(body: Buffer, serializationId: number): string;
}

/** Java's `Request.READONLY_EVENT`. */
export const READONLY_EVENT = "R";

const HESSIAN_NULL = 0x4e; // 'N'
const CHUNK_FINAL = 0x53; // 'S'
const CHUNK_MORE = 0x52; // 'R'
const SHORT_MAX = 0x1f;
const MEDIUM_MAX = 0x3ff;
const MEDIUM_TAG = 0x30;
const CHUNK_CHARS = 0x8000;

/** Java chars (UTF-16 units) as Hessian writes them: 1–3 bytes each, surrogates kept separate. */
function writeChars(text: string, from: number, to: number, out: number[]): void {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
}

export function encodeHessianString(text: string | null): Buffer {
  if (text === null) return Buffer.from([HESSIAN_NULL]);
  const out: number[] = [];
  let start = 0;
  while (text.length - start > MEDIUM_MAX) {
    const end = Math.min(text.length, start + CHUNK_CHARS);
    const n = end - start;
    out.push(end < text.length ? CHUNK_MORE : CHUNK_FINAL, n >> 8, n & 0xff);
    writeChars(text, start, end, out);
    start = end;
    if (end === text.length) return Buffer.from(out);
  }
  const n = text.length - start;
  if (n <= SHORT_MAX) out.push(n);
  else out.push(MEDIUM_TAG + (n >> 8), n & 0xff);
  writeChars(text, start, text.length, out);
  return Buffer.from(out);
}

/** Reads one Hessian 2 string or null; undefined for any other value or a truncated body. */
export function decodeHessianString(body: Buffer): string | null | undefined {
  let pos = 0;
  let text = "";
  for (;;) {
    const tag = body[pos];
    if (tag === undefined) return undefined;
    let n: number;
    let final = true;
    if (tag === HESSIAN_NULL && pos === 0) return null;
    if (tag <= SHORT_MAX) {
      n = tag;
      pos += 1;
    } else if (tag >= MEDIUM_TAG && tag <= MEDIUM_TAG + 3) {
      if (pos + 1 >= body.length) return undefined;
      n = ((tag - MEDIUM_TAG) << 8) | body[pos + 1]!;
      pos += 2;
    } else if (tag === CHUNK_FINAL || tag === CHUNK_MORE) {
      if (pos + 2 >= body.length) return undefined;
      n = body.readUInt16BE(pos + 1);
      final = tag === CHUNK_FINAL;
      pos += 3;
    } else {
      return undefined;
    }
    const units: number[] = [];
    for (let i = 0; i < n; i++) {
      const b = body[pos];
      if (b === undefined) return undefined;
      if (b < 0x80) {
        units.push(b);
        pos += 1;
      } else if ((b & 0xe0) === 0xc0) {
        units.push(((b & 0x1f) << 6) | (body[pos + 1]! & 0x3f));
        pos += 2;
      } else {
        units.push(((b & 0x0f) << 12) | ((body[pos + 1]! & 0x3f) << 6) | (body[pos + 2]! & 0x3f));
        pos += 3;
      }
    }
    text += String.fromCharCode(...units);
    if (final) return text;
  }
}

const NULL_BODY = Buffer.from([HESSIAN_NULL]);

export const hessian2EventCodec: EventCodec = {
  serializationId: 2,
  encodeEvent: (data) => (data === null ? NULL_BODY : encodeHessianString(data)),
  decodeEvent: decodeHessianString,
  encodeErrorMessage: encodeHessianString,
  decodeErrorMessage: (body) => decodeHessianString(body) ?? `<${body.length} undecodable bytes>`,
};
