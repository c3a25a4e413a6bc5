import {
  BizError,
  DEFAULT_FAILBACK_PERIOD_MS,
  DEFAULT_FAILBACK_TASKS,
  DEFAULT_FAILBACK_TIMES,
  DEFAULT_TIMEOUT_MS,
  deriveInvocation,
  type Invocation,
  type Invoker,
  type RpcResult,
  resultOf,
} from "../../core/index.js";
import type { Cluster, ClusterContext, Directory, LoadBalance } from "../contracts.js";
import { AbstractClusterInvoker } from "./cluster-invoker.js";

interface RetryTask {
  readonly inv: Invocation;
  readonly lb: LoadBalance;
  lastInvoker: Invoker | undefined;
  failures: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * `failback`: a failed call returns an empty result (null) at once and is recorded; a background
 * timer (unref'd) retries it every `failback.period` ms (dubbo-ts key; Java's fixed 5 s) on
 * another provider where possible, up to `retries` times (default 3, as is a negative value; 0 means no retry), with at
 * most `failbacktasks` (default 100) calls waiting. For notifications that must arrive eventually.
 * A provider's business error is its answer and reaches the caller. `destroy` stops the retries.
 */
export class FailbackClusterInvoker extends AbstractClusterInvoker {
  readonly #retries: number;
  readonly #periodMs: number;
  readonly #maxTasks: number;
  readonly #tasks = new Set<RetryTask>();

  constructor(directory: Directory, context: ClusterContext) {
    super(directory, context);
    const url = directory.url;
    // Java 2.7.23: unset or negative means 3; 0 means no background retry.
    const retries = Math.trunc(url.number("retries", DEFAULT_FAILBACK_TIMES));
    this.#retries = retries < 0 ? DEFAULT_FAILBACK_TIMES : retries;
    this.#periodMs = Math.max(1, url.number("failback.period", DEFAULT_FAILBACK_PERIOD_MS));
    const tasks = Math.trunc(url.number("failbacktasks", DEFAULT_FAILBACK_TASKS));
    this.#maxTasks = tasks > 0 ? tasks : DEFAULT_FAILBACK_TASKS;
  }

  /** Calls waiting for a background retry. */
  get pendingRetries(): number {
    return this.#tasks.size;
  }

  protected async doInvoke(
    inv: Invocation,
    invokers: readonly Invoker[],
    lb: LoadBalance,
  ): Promise<RpcResult> {
    let invoker: Invoker | undefined;
    try {
      invoker = this.select(lb, inv, invokers);
      return await this.attempt(invoker, inv);
    } catch (error) {
      if (error instanceof BizError) throw error;
      this.context.warn(
        `failback: ${this.url.serviceKey} method ${inv.method} failed${invoker === undefined ? "" : ` on ${invoker.url.address}`}; returning null and retrying in the background`,
        error,
      );
      this.#record(inv, lb, invoker);
      return resultOf(null);
    }
  }

  override async destroy(): Promise<void> {
    for (const task of this.#tasks) clearTimeout(task.timer);
    this.#tasks.clear();
    await super.destroy();
  }

  #record(inv: Invocation, lb: LoadBalance, lastInvoker: Invoker | undefined): void {
    if (this.#retries === 0 || this.destroyed) return;
    if (this.#tasks.size >= this.#maxTasks) {
      this.context.warn(
        `failback: ${this.#tasks.size} calls already wait for a retry (failbacktasks=${this.#maxTasks}); dropping ${this.url.serviceKey} method ${inv.method}`,
      );
      return;
    }
    const task: RetryTask = { inv, lb, lastInvoker, failures: 0, timer: undefined };
    this.#tasks.add(task);
    this.#schedule(task);
  }

  #schedule(task: RetryTask): void {
    task.timer = setTimeout(() => void this.#retry(task), this.#periodMs);
    task.timer.unref();
  }

  async #retry(task: RetryTask): Promise<void> {
    if (!this.#tasks.has(task)) return;
    try {
      const inv = freshInvocation(
        task.inv,
        this.url.methodNumber(task.inv.method, "timeout", DEFAULT_TIMEOUT_MS),
      );
      const invokers = this.list(inv);
      const tried = task.lastInvoker === undefined ? [] : [task.lastInvoker];
      const invoker = this.select(task.lb, inv, invokers, tried);
      task.lastInvoker = invoker;
      await this.attempt(invoker, inv);
      this.#tasks.delete(task);
    } catch (error) {
      if (!this.#tasks.has(task)) return;
      task.failures++;
      if (task.failures >= this.#retries || this.destroyed) {
        this.#tasks.delete(task);
        this.context.warn(
          `failback: giving up on ${this.url.serviceKey} method ${task.inv.method} after ${task.failures} background retries (retries=${this.#retries})`,
          error,
        );
      } else {
        this.#schedule(task);
      }
    }
  }
}

/**
 * The caller's invocation has long completed (its signal aborted, its deadline gone), so each
 * background retry runs as a new call with its own timeout.
 */
function freshInvocation(inv: Invocation, timeoutMs: number): Invocation {
  return deriveInvocation(inv, { signal: AbortSignal.timeout(timeoutMs), deadline: Date.now() + timeoutMs });
}

export const failbackCluster: Cluster = (directory, context) =>
  new FailbackClusterInvoker(directory, context);
