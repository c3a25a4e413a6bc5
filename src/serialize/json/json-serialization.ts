import { Code, FASTJSON_SERIALIZATION_ID, type JavaType, RpcError } from "../../core/index.js";
import type { ObjectInput, ObjectOutput, Serialization } from "../serialization.js";

const BIGINT_MARK = "\u0000bigint:";
const BIGINT_TEXT = /"\\u0000bigint:(-?\d+)"/g;

/** JS values in the shapes fastjson writes and reads: Date as epoch ms, Map as object, binary as base64. */
function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === "bigint") {
    return Number.isSafeInteger(Number(value)) ? Number(value) : `${BIGINT_MARK}${value}`;
  }
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  if (value instanceof Error) return { message: value.message };
  return value;
}

function toJsonText(value: unknown, path: string): string {
  // Date#toJSON runs before the replacer sees the value, so dates are converted up front.
  const prepared = value instanceof Date ? value.getTime() : value;
  let text: string | undefined;
  try {
    text = JSON.stringify(prepared, function (this: Record<string, unknown>, key, v) {
      const raw = key === "" ? v : this[key];
      return replacer.call(this, key, raw instanceof Date ? raw.getTime() : v);
    });
  } catch (error) {
    throw new RpcError(`json encode ${path}: ${(error as Error).message}`, Code.InvalidArgument, {
      cause: error,
    });
  }
  text ??= "null";
  // Longs beyond 2^53 go out as bare digits, as fastjson writes a long.
  return text.includes(BIGINT_MARK.slice(1)) ? text.replace(BIGINT_TEXT, "$1") : text;
}

function fromJson(value: unknown, type: JavaType | undefined): unknown {
  if (type === undefined || value === null) return value;
  switch (type.kind) {
    case "date":
      return typeof value === "number" || typeof value === "string" ? new Date(value) : value;
    case "bytes":
      return typeof value === "string" ? Buffer.from(value, "base64") : value;
    case "bigdecimal":
      return typeof value === "number" ? String(value) : value;
    case "biginteger":
      return typeof value === "number" || typeof value === "string" ? BigInt(value) : value;
    case "set":
      return Array.isArray(value) ? new Set(value.map((v) => fromJson(v, type.element))) : value;
    case "list":
    case "array":
      return Array.isArray(value) ? value.map((v) => fromJson(v, type.element)) : value;
    case "map":
      return typeof value === "object"
        ? new Map(Object.entries(value).map(([k, v]) => [k, fromJson(v, type.value)]))
        : value;
    default:
      return value;
  }
}

/** Collects a body's JSON lines; spliced bytes (`writeBytes`) sit between them as they are. */
class JsonOutput implements ObjectOutput {
  private parts: Buffer[] = [];
  private text = "";

  writeValue(value: unknown, _type?: JavaType, path = "value"): void {
    this.text += `${toJsonText(value, path)}\n`;
  }

  writeBytes(bytes: Uint8Array): void {
    this.flushText();
    this.parts.push(Buffer.from(bytes));
  }

  finish(): Buffer {
    this.flushText();
    const body = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts = [];
    return body;
  }

  reset(): void {
    this.parts = [];
    this.text = "";
  }

  private flushText(): void {
    if (this.text === "") return;
    this.parts.push(Buffer.from(this.text, "utf8"));
    this.text = "";
  }
}

class JsonInput implements ObjectInput {
  private readonly bytes: Buffer;
  private pos: number;

  constructor(bytes: Uint8Array, offset: number) {
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = offset;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  readValue(type?: JavaType): unknown {
    if (this.pos >= this.bytes.length)
      throw new RpcError(`json decode at offset ${this.pos}: no more values`, Code.DataLoss);
    let end = this.bytes.indexOf(0x0a, this.pos);
    if (end < 0) end = this.bytes.length;
    const text = this.bytes.toString("utf8", this.pos, end);
    const at = this.pos;
    this.pos = end + 1;
    try {
      return fromJson(JSON.parse(text), type);
    } catch (error) {
      throw new RpcError(`json decode at offset ${at}: ${(error as Error).message}`, Code.DataLoss, {
        cause: error,
      });
    }
  }
}

/** Dubbo's fastjson serialization (id 6): one JSON text per value, each ended by a newline. */
export function createJsonSerialization(): Serialization {
  return {
    id: FASTJSON_SERIALIZATION_ID,
    name: "fastjson",
    createOutput: () => new JsonOutput(),
    createInput: (bytes, offset = 0) => new JsonInput(bytes, offset),
  };
}
