import {
  consoleLogger,
  DEFAULT_TIMEOUT_MS,
  type Filter,
  type FilterExtension,
  type Invocation,
  type Logger,
} from "../../core/index.js";

export interface TimeoutFilterOptions {
  /** Receives the overrun warning. */
  readonly logger?: Logger | undefined;
}

/**
 * Provider side (Java's TimeoutFilter): a call that finished after its timeout is logged with the
 * service, method, caller and elapsed time. The timeout is the caller's (the request's `timeout`
 * attachment, as the deadline) or else the provider URL's `<method>.timeout` / `timeout`. The call's
 * outcome is not changed: the consumer has already given up on its own.
 */
export function createTimeoutFilter(options: TimeoutFilterOptions = {}): FilterExtension {
  const logger = options.logger ?? consoleLogger;
  const filter: Filter = (next, invoker) => {
    const url = invoker.url;
    const check = (inv: Invocation, started: number): void => {
      const elapsed = Date.now() - started;
      const timeoutMs =
        inv.deadline !== undefined
          ? inv.deadline - started
          : url.methodNumber(inv.method, "timeout", DEFAULT_TIMEOUT_MS);
      if (elapsed > timeoutMs) {
        logger.warn(
          `${inv.service}.${inv.method} from ${inv.remoteAddress ?? "unknown"} at ${url.address} took ${elapsed} ms, ` +
            `over its timeout of ${timeoutMs} ms; the caller has given up (make it faster or raise \`timeout\`)`,
        );
      }
    };
    // A then pair rather than `finally`, which costs two more promises per call.
    return (inv) => {
      const started = Date.now();
      return next(inv).then(
        (result) => {
          check(inv, started);
          return result;
        },
        (error: unknown) => {
          check(inv, started);
          throw error;
        },
      );
    };
  };
  return Object.freeze({
    filter,
    activate: Object.freeze({ side: "provider" }),
  });
}
