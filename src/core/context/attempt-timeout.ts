import { DEFAULT_TIMEOUT_MS } from "../defaults.js";
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import type { Invocation } from "../rpc/invocation.js";
import type { Url } from "../url/url.js";

/**
 * How long one attempt may wait, as Java's DubboInvoker decides it: `timeout` bounds each
 * invocation of one provider (a failover retry gets it anew), never the call as a whole.
 */

/**
 * The attachment that gives one call its own timeout, ms (Java 2.7: `RpcContext` attachment
 * `timeout`, read before the URL's; per-call options set it). Each attempt also sends its timeout
 * to the provider under this key, as Java 3 does.
 */
export const TIMEOUT_ATTACHMENT = "timeout";

const GENERIC_METHODS: ReadonlySet<string> = new Set(["$invoke", "$invokeAsync"]);

/**
 * The method whose settings (`sayHello.timeout`, …) apply to `inv`: the called method, or for a
 * generic `$invoke` the method it names (Java's `RpcUtils.getMethodName`).
 */
export function settingsMethodOf(inv: Invocation): string {
  if (GENERIC_METHODS.has(inv.method)) {
    const named = inv.args[0];
    if (typeof named === "string" && named !== "") return named;
  }
  return inv.method;
}

function positiveInteger(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * One attempt's timeout: the call's own `timeout` attachment when it is a positive integer (number
 * or string), else `configuredMs` (the method's `timeout` from the provider's URL; not positive
 * means the default, as Java's `getMethodPositiveParameter`). Clamped to the time left before
 * `inv.deadline` when one is set; zero or less means that time is already up.
 */
export function attemptTimeoutMs(inv: Invocation, configuredMs: number, now?: number): number {
  const timeoutMs =
    positiveInteger(inv.attachments[TIMEOUT_ATTACHMENT]) ??
    positiveInteger(configuredMs) ??
    DEFAULT_TIMEOUT_MS;
  if (inv.deadline === undefined) return timeoutMs;
  // The clock is read only for a call with a deadline: reading it costs 0.2-1 us on some hosts.
  return Math.min(timeoutMs, inv.deadline - (now ?? Date.now()));
}

/**
 * The deadline of one IDL stream, ms, or none. Java 3.3's TripleInvoker bounds only unary calls by
 * `timeout` (its streams send no `grpc-timeout` and have no deadline future), so a stream is
 * bounded only by what its caller asked for: its own `timeout` attachment (the per-call
 * `timeoutMs`) and `inv.deadline`. Zero or less means that time is already up.
 */
export function streamTimeoutMs(inv: Invocation, now = Date.now()): number | undefined {
  const ownMs = positiveInteger(inv.attachments[TIMEOUT_ATTACHMENT]);
  if (inv.deadline === undefined) return ownMs;
  const leftMs = inv.deadline - now;
  return ownMs === undefined ? leftMs : Math.min(ownMs, leftMs);
}

/**
 * The attempt timeouts of one protocol invoker's calls: {@link attemptTimeoutMs} with the `timeout`
 * of each call's settings method (`sayHello.timeout`, then `timeout`), read from `url` once.
 */
export class AttemptTimeouts {
  readonly #url: Url;
  readonly #configured = new Map<string, number>();

  constructor(url: Url) {
    this.#url = url;
  }

  of(inv: Invocation): number {
    const method = settingsMethodOf(inv);
    let configuredMs = this.#configured.get(method);
    if (configuredMs === undefined) {
      configuredMs = this.#url.methodNumber(method, "timeout", DEFAULT_TIMEOUT_MS);
      this.#configured.set(method, configuredMs);
    }
    return attemptTimeoutMs(inv, configuredMs);
  }
}

export interface TimedOutAttempt {
  readonly service: string;
  readonly method: string;
  /** The provider's `host:port`. */
  readonly address: string;
  readonly elapsedMs: number;
  readonly timeoutMs: number;
}

/** The `DeadlineExceeded` of one attempt, naming the provider and the setting to change. */
export function attemptTimeoutError(attempt: TimedOutAttempt): RpcError {
  const { service, method, address } = attempt;
  return new RpcError(
    `${service}.${method} to ${address} timed out after ${attempt.elapsedMs} ms (timeout ${attempt.timeoutMs} ms); ` +
      `raise \`timeoutMs\` on the reference or \`methods.${method}.timeoutMs\` (Dubbo keys \`timeout\` / ` +
      `\`${method}.timeout\`), or make the provider faster`,
    Code.DeadlineExceeded,
  );
}
