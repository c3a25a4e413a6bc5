import { Code, RpcError } from "../../core/index.js";

/**
 * Raised deep inside the writer and unwound through each container, which adds its path segment
 * (`[2]`, `.tags`), so the final message names where the bad value sits without the writer having
 * to track a path on the happy path.
 */
export class EncodePathError extends Error {
  readonly segments: string[] = [];
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** Adds one path segment (innermost first) to an error unwinding through a container. */
export function withSegment(error: unknown, segment: string): unknown {
  if (error instanceof EncodePathError) error.segments.push(segment);
  return error;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Map) return "Map";
  if (value instanceof Set) return "Set";
  if (value instanceof Date) return "Date";
  if (value instanceof Uint8Array) return "Uint8Array";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "number NaN";
    return Number.isInteger(value) ? `number ${value}` : "number (fraction)";
  }
  if (typeof value === "object") {
    const cls = (value as { $class?: unknown }).$class;
    return typeof cls === "string" ? `object ${cls}` : "object";
  }
  return typeof value;
}

export function mismatch(expected: string, value: unknown): EncodePathError {
  return new EncodePathError(`expected ${expected}, got ${describeValue(value)}`);
}

/** Turns an unwound path error into the public error: `args[0].tags[2]: expected java.lang.String, got number`. */
export function toEncodeError(error: unknown, root: string): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof EncodePathError) {
    const path = root + error.segments.reverse().join("");
    return new RpcError(`hessian2 encode ${path}: ${error.detail}`, Code.InvalidArgument, { cause: error });
  }
  if (error instanceof RangeError) {
    return new RpcError(
      `hessian2 encode ${root}: value nests too deeply to encode (${error.message}); raise option maxDepth only if the graph is not cyclic`,
      Code.InvalidArgument,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new RpcError(`hessian2 encode ${root}: ${message}`, Code.InvalidArgument, { cause: error });
}

/** Corrupt or hostile input: names the offset and what the decoder expected there. */
export function dataLoss(offset: number, what: string): RpcError {
  return new RpcError(`hessian2 decode at offset ${offset}: ${what}`, Code.DataLoss);
}
