import {
  Code,
  DEFAULT_DISPATCHER,
  DEFAULT_QUEUES,
  DEFAULT_THREADPOOL,
  DEFAULT_THREADS,
  RpcError,
  type Url,
} from "../../../core/index.js";
import { createBoundedExecutor, directExecutor, type Executor } from "./executor.js";

/**
 * `dispatcher`: which events go through the thread pool. On one event loop only requests cost
 * anything to admit, so `all`, `message`, `execution` and `connection` all admit requests through
 * the pool (connection events and responses are cheap and stay on the I/O callback); `direct` runs
 * every request at once with no limit.
 */
export const DISPATCHERS = ["all", "direct", "message", "execution", "connection"] as const;

/**
 * `threadpool`: `fixed` (at most `threads` running, `queues` waiting), `limited` (the same on Node:
 * Java's only difference is that its threads never shrink), `cached` (`threads` bounds it only when
 * set), and `worker` (a service runs in worker threads, see `createWorkerInvoker`; requests are
 * admitted by the pool the worker invoker owns).
 */
export const THREADPOOLS = ["fixed", "limited", "cached", "eager", "worker"] as const;

function integer(url: Url, key: string, fallback: number): number {
  const raw = url.get(key);
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) {
    throw new RpcError(
      `${key}=${raw} on ${url.serviceKey} is not an integer (set it to a whole number)`,
      Code.InvalidArgument,
    );
  }
  return n;
}

/** The request executor a provider URL asks for (`dispatcher`, `threadpool`, `threads`, `queues`). */
export function resolveExecutor(url: Url): Executor {
  const dispatcher = url.string("dispatcher", DEFAULT_DISPATCHER);
  if (!(DISPATCHERS as readonly string[]).includes(dispatcher)) {
    throw new RpcError(
      `dispatcher=${dispatcher} on ${url.serviceKey} is unknown (known: ${DISPATCHERS.join(", ")})`,
      Code.InvalidArgument,
    );
  }
  const threadpool = url.string("threadpool", DEFAULT_THREADPOOL);
  if (!(THREADPOOLS as readonly string[]).includes(threadpool)) {
    throw new RpcError(
      `threadpool=${threadpool} on ${url.serviceKey} is unknown (known: ${THREADPOOLS.join(", ")})`,
      Code.InvalidArgument,
    );
  }
  if (dispatcher === "direct") return directExecutor;
  const queues = integer(url, "queues", DEFAULT_QUEUES);
  // `cached` grows without bound unless `threads` is set; a worker service bounds itself in its own
  // pool, so the server only keeps the I/O side unbounded for it.
  const unboundedByDefault = threadpool === "cached" || threadpool === "eager" || threadpool === "worker";
  const threads = integer(url, "threads", unboundedByDefault ? 0 : DEFAULT_THREADS);
  if (threads <= 0 && !unboundedByDefault) {
    throw new RpcError(
      `threads=${threads} on ${url.serviceKey} would refuse every call (threadpool=${threadpool} needs at least 1)`,
      Code.InvalidArgument,
    );
  }
  const limit = threads <= 0 ? Number.POSITIVE_INFINITY : threads;
  return createBoundedExecutor({
    threads: limit,
    queues: limit === Number.POSITIVE_INFINITY ? -1 : queues,
    description: `dispatcher=${dispatcher} threadpool=${threadpool} threads=${limit === Number.POSITIVE_INFINITY ? "unbounded" : limit} queues=${queues < 0 ? "unbounded" : queues}`,
  });
}
