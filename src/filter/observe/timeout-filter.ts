import {
  consoleLogger,
  DEFAULT_TIMEOUT_MS,
  type Filter,
  type FilterExtension,
  type Invocation,
  type Logger,
} from "../../core/index.js";
import { listenerFilter } from "../call-listener.js";

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
  // A listener: the chain runs it in the step it shares with the exception filter, no promise of its own.
  const filter: Filter = listenerFilter((invoker) => {
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
    return {
      timed: true,
      onResponse(result, inv, started) {
        check(inv, started);
        return result;
      },
      onError(error, inv, started): never {
        check(inv, started);
        throw error;
      },
    };
  });
  return Object.freeze({
    filter,
    activate: Object.freeze({ side: "provider" }),
  });
}
