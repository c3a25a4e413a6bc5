import { DEFAULT_TIMEOUT_MS, type Filter, type FilterExtension } from "../../core/index.js";

export interface TimeoutFilterOptions {
  /** Receives the overrun warning (default: console.warn). */
  readonly warn?: (message: string) => void;
}

/**
 * Provider side (Java's TimeoutFilter): a call that finished after its timeout is logged with the
 * service, method, caller and elapsed time. The timeout is the caller's (the request's `timeout`
 * attachment, as the deadline) or else the provider URL's `<method>.timeout` / `timeout`. The call's
 * outcome is not changed: the consumer has already given up on its own.
 */
export function createTimeoutFilter(options: TimeoutFilterOptions = {}): Filter {
  const warn = options.warn ?? ((message: string) => console.warn(`[dubbo-ts] ${message}`));
  return (next, invoker) => {
    const url = invoker.url;
    return (inv) => {
      const started = Date.now();
      const check = (): void => {
        const elapsed = Date.now() - started;
        const timeoutMs =
          inv.deadline !== undefined
            ? inv.deadline - started
            : url.methodNumber(inv.method, "timeout", DEFAULT_TIMEOUT_MS);
        if (elapsed > timeoutMs) {
          warn(
            `${inv.service}.${inv.method} from ${inv.remoteAddress ?? "unknown"} at ${url.address} took ${elapsed} ms, ` +
              `over its timeout of ${timeoutMs} ms; the caller has given up (make it faster or raise \`timeout\`)`,
          );
        }
      };
      return next(inv).finally(check);
    };
  };
}

export const timeoutFilter: Filter = createTimeoutFilter();

export const timeoutFilterExtension: FilterExtension = Object.freeze({
  filter: timeoutFilter,
  activate: Object.freeze({ side: "provider" }),
});
