import {
  Code,
  DEFAULT_DISPATCHER,
  DEFAULT_QUEUES,
  DEFAULT_THREADPOOL,
  DEFAULT_THREADS,
  ExtensionPoint,
  RpcError,
  type Url,
} from "../../../core/index.js";
import { createBoundedExecutor, directExecutor, type Executor } from "./executor.js";

/**
 * A `threadpool` extension (Java's `ThreadPool.getExecutor(url)`): the executor that admits a
 * server's requests, built once per server from its first export's URL (`threads`, `queues`, …).
 */
export type ThreadPool = (url: Url) => Executor;

/**
 * A `dispatcher` extension (Java's `Dispatcher`): which executor a server's requests run on, given
 * the URL and the thread pool it names. On one event loop only requests cost anything to admit, so
 * every built-in but `direct` admits them through the pool (connection events and responses are
 * cheap and stay on the I/O callback); `direct` runs every request at once with no limit.
 */
export type Dispatcher = (url: Url, threadPool: ThreadPool) => Executor;

/** The thread model's two extension points, as a protocol receives them from its application. */
export interface ThreadModel {
  readonly threadPool: ExtensionPoint<ThreadPool>;
  readonly dispatcher: ExtensionPoint<Dispatcher>;
}

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

/** `threads` running at most (200 by default), `queues` waiting (0 by default: Java's hand-off). */
function boundedPool(name: string): ThreadPool {
  return (url) => {
    const threads = integer(url, "threads", DEFAULT_THREADS);
    if (threads <= 0) {
      throw new RpcError(
        `threads=${threads} on ${url.serviceKey} would refuse every call (threadpool=${name} needs at least 1)`,
        Code.InvalidArgument,
      );
    }
    const queues = integer(url, "queues", DEFAULT_QUEUES);
    return createBoundedExecutor({
      threads,
      queues,
      description: `threadpool=${name} threads=${threads} queues=${queues < 0 ? "unbounded" : queues}`,
    });
  };
}

/** Unbounded unless `threads` is set (then bounded as `fixed`, with `queues`). */
function growingPool(name: string): ThreadPool {
  return (url) => {
    const threads = integer(url, "threads", 0);
    if (threads <= 0) {
      return createBoundedExecutor({
        threads: Number.POSITIVE_INFINITY,
        queues: -1,
        description: `threadpool=${name} threads=unbounded queues=unbounded`,
      });
    }
    return boundedPool(name)(url);
  };
}

/**
 * The built-in thread pools: `fixed`; `limited` (the same on Node: Java's only difference is that
 * its threads never shrink); `cached` and `eager` (grow without bound unless `threads` is set); and
 * `worker` (the service runs in worker threads, see `createWorkerInvoker`, whose own pool admits
 * its requests, so the server keeps the I/O side unbounded).
 */
export const BUILTIN_THREAD_POOLS: ReadonlyArray<readonly [string, ThreadPool]> = [
  ["fixed", boundedPool("fixed")],
  ["limited", boundedPool("limited")],
  ["cached", growingPool("cached")],
  ["eager", growingPool("eager")],
  ["worker", growingPool("worker")],
];

const throughThreadPool: Dispatcher = (url, threadPool) => threadPool(url);

export const BUILTIN_DISPATCHERS: ReadonlyArray<readonly [string, Dispatcher]> = [
  ["all", throughThreadPool],
  ["direct", () => directExecutor],
  ["message", throughThreadPool],
  ["execution", throughThreadPool],
  ["connection", throughThreadPool],
];

/** Fresh thread-model points holding only the built-ins (a protocol created outside an application). */
export function builtinThreadModel(): ThreadModel {
  return {
    threadPool: new ExtensionPoint("threadpool", DEFAULT_THREADPOOL, BUILTIN_THREAD_POOLS),
    dispatcher: new ExtensionPoint("dispatcher", DEFAULT_DISPATCHER, BUILTIN_DISPATCHERS),
  };
}

/**
 * The request executor a provider URL asks for (`dispatcher`, `threadpool`, `threads`, `queues`),
 * looked up by name once per server, so a bad name fails the export, never a call.
 */
export function resolveExecutor(url: Url, model: ThreadModel): Executor {
  const dispatcher = lookUp(model.dispatcher, url);
  const threadPool = lookUp(model.threadPool, url);
  return dispatcher(url, threadPool);
}

/** The point's kind is also the URL key naming its extension (`threadpool`, `dispatcher`). */
function lookUp<T>(point: ExtensionPoint<T>, url: Url): T {
  const name = url.string(point.kind, point.defaultName ?? "");
  if (!point.has(name)) {
    throw new RpcError(
      `${point.kind}=${name} on ${url.serviceKey} names no ${point.kind} (registered: ${point.names().join(", ") || "none"}; a plugin can register more)`,
      Code.InvalidArgument,
    );
  }
  return point.get(name);
}
