import type { ThreadPoolSizes } from "../protocol-observer.js";

/**
 * A bounded executor: Java's thread pools as Node admission control. At most `threads` tasks run at
 * once (a task holds its slot until its promise settles), at most `queues` wait behind them, and
 * anything beyond is refused, so the caller answers SERVER_THREADPOOL_EXHAUSTED at once instead of
 * letting work pile up without bound on the one event loop.
 */
export interface Executor extends ThreadPoolSizes {
  /** What it is and its limits, for error messages: `threadpool=fixed threads=200 queues=0`. */
  readonly description: string;
  /**
   * Runs `task(arg)` now or when a slot frees up; undefined when the executor is full (nothing was
   * started). `task` must not throw synchronously (return a rejected promise instead).
   */
  run<A, R>(task: (arg: A) => Promise<R>, arg: A): Promise<R> | undefined;
}

export interface BoundedExecutorOptions {
  /** Largest number of tasks running at once; `Infinity` for no limit. */
  readonly threads: number;
  /** Largest number waiting for a slot; 0 = none (Java's synchronous hand-off), negative = no limit. */
  readonly queues: number;
  readonly description: string;
}

interface Waiting {
  readonly task: (arg: unknown) => Promise<unknown>;
  readonly arg: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

export function createBoundedExecutor(options: BoundedExecutorOptions): Executor {
  const { threads, queues, description } = options;
  const waiting: Waiting[] = [];
  let head = 0;
  let active = 0;
  let largest = 0;

  function release(): void {
    active--;
    if (head < waiting.length) {
      const next = waiting[head]!;
      waiting[head++] = undefined as unknown as Waiting;
      if (head > 1024 && head * 2 > waiting.length) {
        waiting.splice(0, head);
        head = 0;
      }
      active++;
      start(next.task, next.arg).then(next.resolve, next.reject);
    }
  }

  function start<A, R>(task: (arg: A) => Promise<R>, arg: A): Promise<R> {
    let promise: Promise<R>;
    try {
      promise = task(arg);
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(release, release);
    return promise;
  }

  return {
    description,
    threads,
    get largest() {
      return largest;
    },
    get active() {
      return active;
    },
    get queued() {
      return waiting.length - head;
    },
    run(task, arg) {
      if (active < threads) {
        if (++active > largest) largest = active;
        return start(task, arg);
      }
      if (queues >= 0 && waiting.length - head >= queues) return undefined;
      return new Promise((resolve, reject) => {
        waiting.push({
          task: task as (arg: unknown) => Promise<unknown>,
          arg,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
      });
    },
  };
}

/** The `direct` dispatcher: every task runs at once on the I/O callback, with no limit. */
export const directExecutor: Executor = {
  description: "dispatcher=direct",
  threads: Number.POSITIVE_INFINITY,
  largest: 0,
  active: 0,
  queued: 0,
  run(task, arg) {
    try {
      return task(arg);
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
