import {
  AttemptTimeouts,
  attemptTimeoutError,
  Code,
  cancelableSignal,
  canceledError,
  type DeadlineTimers,
  deriveInvocation,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  type TimedEntry,
  type Url,
} from "../../core/index.js";
import type { InjvmRegistry } from "./injvm-registry.js";

/** The caller's address a provider sees for an in-process call (Java's InjvmInvoker uses the same). */
export const INJVM_REMOTE_ADDRESS = "127.0.0.1:0";

/** Where an in-process call went, for its timeout error. */
const IN_PROCESS = "injvm (in-process)";

/**
 * A reference to a service exported in the same application. The exporter is looked up at each
 * call (one map lookup), so a reference made before the export, or across an unexport and a new
 * export, calls whatever is exported now; the exported invoker already carries its provider filters.
 * Each call waits at most its `timeout`, as a remote one does (Java's injvm waits without limit),
 * and stops waiting as soon as the caller's signal aborts.
 */
export class InjvmInvoker implements Invoker {
  readonly url: Url;
  readonly #registry: InjvmRegistry;
  readonly #key: string;
  readonly #deadlines: DeadlineTimers;
  readonly #timeouts: AttemptTimeouts;
  readonly #onDestroy: ((invoker: InjvmInvoker) => void) | undefined;
  #destroyed = false;
  #pending = 0;

  constructor(
    url: Url,
    key: string,
    registry: InjvmRegistry,
    deadlines: DeadlineTimers,
    /** Told once when this invoker is destroyed (its protocol stops holding it). */
    onDestroy?: (invoker: InjvmInvoker) => void,
  ) {
    this.url = url;
    this.#onDestroy = onDestroy;
    this.#key = key;
    this.#registry = registry;
    this.#deadlines = deadlines;
    this.#timeouts = new AttemptTimeouts(url);
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    if (this.#destroyed) {
      return Promise.reject(
        new RpcError(`${this.#key}.${inv.method}: this injvm reference was destroyed`, Code.Unavailable),
      );
    }
    const exporter = this.#registry.find(this.#key);
    if (exporter === undefined) return Promise.reject(this.#notExported(inv));
    const timeoutMs = this.#timeouts.of(inv);
    const started = Date.now();
    const timedOut = (): RpcError =>
      attemptTimeoutError({
        service: this.#key,
        method: inv.method,
        address: IN_PROCESS,
        elapsedMs: Date.now() - started,
        timeoutMs,
      });
    if (timeoutMs <= 0) return Promise.reject(timedOut());
    const signal = cancelableSignal(inv.signal);
    if (signal?.aborted === true) {
      return Promise.reject(
        canceledError(`${this.#key}.${inv.method} (injvm, before calling)`, signal.reason),
      );
    }
    // The caller is the provider's own application: it passes the export's token, as Java's InjvmInvoker does.
    const token = exporter.invoker.url.get("token");
    const call = exporter.invoker.invoke(
      deriveInvocation(
        inv,
        token === undefined
          ? { remoteAddress: INJVM_REMOTE_ADDRESS }
          : { remoteAddress: INJVM_REMOTE_ADDRESS, attachments: { ...inv.attachments, token } },
      ),
    );
    this.#pending++;
    return new Promise<RpcResult>((resolve, reject) => {
      let waiting = true;
      const stop = (): boolean => {
        if (!waiting) return false;
        waiting = false;
        this.#pending--;
        this.#deadlines.delete(entry, timeoutMs);
        signal?.removeEventListener("abort", onAbort);
        return true;
      };
      const entry: TimedEntry = {
        onDeadline: () => {
          if (stop()) reject(timedOut());
        },
      };
      const onAbort = (): void => {
        if (stop()) {
          const elapsed = Date.now() - started;
          reject(canceledError(`${this.#key}.${inv.method} (injvm, after ${elapsed} ms)`, signal?.reason));
        }
      };
      this.#deadlines.add(entry, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      call.then(
        (result) => {
          if (stop()) resolve(result);
        },
        (error: unknown) => {
          if (stop()) reject(error);
        },
      );
    });
  }

  /** Calls waiting for the exported service's answer, for diagnostics. */
  get pendingCount(): number {
    return this.#pending;
  }

  isAvailable(): boolean {
    return !this.#destroyed && this.#registry.find(this.#key) !== undefined;
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#onDestroy?.(this);
  }

  #notExported(inv: Invocation): RpcError {
    const exported = this.#registry.keys();
    return new RpcError(
      `no service "${this.#key}" is exported in-process (injvm) in this application, called ${inv.method}; ` +
        `exported: ${exported.length === 0 ? "none" : exported.join(", ")}. Export it with scope "local" ` +
        "(the default exports both local and remote), or check the reference's interface, group and version",
      Code.NotFound,
    );
  }
}
