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
  /**
   * Optional, with {@link release}: as `run`, but the task keeps its slot past its promise, until the
   * caller calls `release()` once, when it has handled the outcome. A caller that reacts to the
   * outcome anyway (the dubbo server's answer) so spares the executor's own reaction: a promise per
   * call. An executor without it is used through `run`.
   */
  runHeld?<A, R>(task: (arg: A) => Promise<R>, arg: A): Promise<R> | undefined;
  /** Ends the slot of one task started by {@link runHeld}. */
  release?(): void;
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
  /** Started by `runHeld`: its caller releases the slot. */
  readonly held: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

export function createBoundedExecutor(options: BoundedExecutorOptions): Executor {
  const { threads, queues, description } = options;
  const waiting: Waiting[] = [];
  let head = 0;
  let active = 0;
  /** Of `active`, the tasks started by `runHeld` whose caller has not released them yet. */
  let held = 0;
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
      start(next.task, next.arg, next.held).then(next.resolve, next.reject);
    }
  }

  function start<A, R>(task: (arg: A) => Promise<R>, arg: A, isHeld: boolean): Promise<R> {
    let promise: Promise<R>;
    try {
      promise = task(arg);
    } catch (error) {
      promise = Promise.reject(error);
    }
    if (isHeld) held++;
    else promise.then(release, release);
    return promise;
  }

  function releaseHeld(): void {
    // A release without a held task would let more than `threads` tasks run.
    if (held === 0)
      throw new Error(`${description}: release() called with no task started by runHeld() left to release`);
    held--;
    release();
  }

  function admit<A, R>(task: (arg: A) => Promise<R>, arg: A, held: boolean): Promise<R> | undefined {
    if (active < threads) {
      if (++active > largest) largest = active;
      return start(task, arg, held);
    }
    if (queues >= 0 && waiting.length - head >= queues) return undefined;
    return new Promise((resolve, reject) => {
      waiting.push({
        task: task as (arg: unknown) => Promise<unknown>,
        arg,
        held,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
    });
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
    run: (task, arg) => admit(task, arg, false),
    runHeld: (task, arg) => admit(task, arg, true),
    release: releaseHeld,
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
