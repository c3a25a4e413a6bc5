import { Code, RpcError } from "../../core/index.js";

/** ms per unit of the `grpc-timeout` header (gRPC over HTTP/2: `TimeoutValue TimeoutUnit`). */
const MS_PER_UNIT: Readonly<Record<string, number>> = {
  H: 3_600_000,
  M: 60_000,
  S: 1000,
  m: 1,
  u: 1e-3,
  n: 1e-6,
};

/** At most 8 ASCII digits, then one unit letter. */
const TIMEOUT_PATTERN = /^(\d{1,8})([HMSmun])$/;

/**
 * The `grpc-timeout` header in ms, rounded up so a sub-millisecond timeout still leaves the call a
 * millisecond (Java's `GrpcUtils.parseTimeoutToMills` rounds down, to 0 for `999u`, which it then
 * treats as no timeout). A value that does not follow the spec fails naming the header.
 */
export function parseGrpcTimeout(value: string): number {
  // A consumer sends the same few values call after call: the last one is kept, parsed.
  if (value === lastParsed.value) return lastParsed.ms;
  const match = TIMEOUT_PATTERN.exec(value);
  if (match === null) {
    throw new RpcError(
      `grpc-timeout "${value}" is not a gRPC timeout (1 to 8 digits then one of H, M, S, m, u, n, e.g. "3000m")`,
      Code.InvalidArgument,
    );
  }
  const ms = Math.ceil(Number(match[1]) * MS_PER_UNIT[match[2]!]!);
  lastParsed = { value, ms };
  return ms;
}

let lastParsed: { readonly value: string | undefined; readonly ms: number } = { value: undefined, ms: 0 };

/** One unit step of the encoding: the unit and how many nanoseconds it spans. */
const UNITS_FINEST_FIRST: ReadonlyArray<readonly [string, number]> = [
  ["n", 1],
  ["u", 1e3],
  ["m", 1e6],
  ["S", 1e9],
  ["M", 60e9],
  ["H", 3600e9],
];

/** gRPC allows 8 digits; the finest unit whose count stays below 10^8 keeps the most precision. */
const MAX_COUNT = 100_000_000;

/**
 * `timeoutMs` as a `grpc-timeout` value, choosing units as Java's `GrpcUtils.getTimeoutHeaderValue`
 * does (the finest unit whose count is below 10^8: 1000 ms is `1000000u`).
 */
export function formatGrpcTimeout(timeoutMs: number): string {
  const nanos = Math.max(0, Math.round(timeoutMs * 1e6));
  for (const [unit, span] of UNITS_FINEST_FIRST) {
    const count = Math.floor(nanos / span);
    if (count < MAX_COUNT) return `${count}${unit}`;
  }
  return `${Math.min(MAX_COUNT - 1, Math.floor(nanos / 3600e9))}H`;
}
