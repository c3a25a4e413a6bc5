import { Code, DEFAULT_PAYLOAD_BYTES, DEFAULT_SERIALIZATION_MAX_DEPTH, RpcError } from "../../core/index.js";

/** A TS class the decoder instantiates (no arguments) for a Java class, then fills field by field. */
export type HessianClass = new () => object;

export interface Hessian2Options {
  /**
   * How a Java long decodes. `auto` (default): a number when |v| <= 2^53, else a bigint.
   * `bigint`: always a bigint. `number`: always a number (precision lost beyond 2^53).
   */
  longMode?: "auto" | "bigint" | "number";
  /** Deepest nesting of lists, maps and objects written or read (default 512). */
  maxDepth?: number;
  /** Largest string, binary, list or map a decode may claim, in bytes or elements (default 8 MiB, Dubbo's payload). */
  maxBytes?: number;
  /** Java class name -> TS class. Decoded objects of that class become instances of it; instances encode as it. */
  classes?: Readonly<Record<string, HessianClass>> | ReadonlyMap<string, HessianClass>;
}

export interface ResolvedHessian2Options {
  readonly longMode: "auto" | "bigint" | "number";
  readonly maxDepth: number;
  readonly maxBytes: number;
  readonly classes: ReadonlyMap<string, HessianClass>;
  /** The reverse of `classes`, for the writer. */
  readonly classNames: ReadonlyMap<HessianClass, string>;
}

const EMPTY_CLASSES: ReadonlyMap<string, HessianClass> = new Map();

export const DEFAULT_HESSIAN2_OPTIONS: ResolvedHessian2Options = Object.freeze({
  longMode: "auto",
  maxDepth: DEFAULT_SERIALIZATION_MAX_DEPTH,
  maxBytes: DEFAULT_PAYLOAD_BYTES,
  classes: EMPTY_CLASSES,
  classNames: new Map(),
});

export function resolveHessian2Options(options: Hessian2Options | undefined): ResolvedHessian2Options {
  if (options === undefined) return DEFAULT_HESSIAN2_OPTIONS;
  const classes: ReadonlyMap<string, HessianClass> =
    options.classes === undefined
      ? EMPTY_CLASSES
      : options.classes instanceof Map
        ? options.classes
        : new Map(Object.entries(options.classes));
  const classNames = new Map<HessianClass, string>();
  for (const [name, cls] of classes) classNames.set(cls, name);
  const maxDepth = options.maxDepth ?? DEFAULT_SERIALIZATION_MAX_DEPTH;
  const maxBytes = options.maxBytes ?? DEFAULT_PAYLOAD_BYTES;
  if (!Number.isInteger(maxDepth) || maxDepth < 1)
    throw new RpcError(
      `hessian2 option maxDepth must be a positive integer, got ${maxDepth}`,
      Code.InvalidArgument,
    );
  if (!Number.isInteger(maxBytes) || maxBytes < 1)
    throw new RpcError(
      `hessian2 option maxBytes must be a positive integer, got ${maxBytes}`,
      Code.InvalidArgument,
    );
  return Object.freeze({ longMode: options.longMode ?? "auto", maxDepth, maxBytes, classes, classNames });
}
