import {
  AttemptTimeouts,
  attemptTimeoutError,
  BizError,
  Code,
  canceledError,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  resultOf,
  Url,
} from "../core/index.js";

/** What one scripted call does. */
export type FakeStep =
  | { readonly kind: "return"; readonly value: unknown }
  | { readonly kind: "throw"; readonly error: unknown }
  /** Never answers: the call ends when its signal aborts or its attempt timeout passes. */
  | { readonly kind: "hang" };

export interface FakeInvokerOptions {
  /** `host:port` of the fake provider. Default `127.0.0.1:20880`. */
  readonly address?: string;
  /** The service interface. Default `com.example.DemoService`. */
  readonly service?: string;
  /** URL protocol. Default `dubbo` (use `mock` for a mock provider). */
  readonly protocol?: string;
  /** Extra provider URL parameters (`weight`, `timestamp`, `warmup`, `tag`, …). */
  readonly params?: Readonly<Record<string, string | number | boolean>>;
  /** A complete URL instead of address/service/protocol/params. */
  readonly url?: Url;
  /** What a call does once the script is used up. Default: return the address. */
  readonly otherwise?: FakeStep;
  /** Delay before each call settles, ms (ends early on the signal's abort or the attempt timeout). */
  readonly latencyMs?: number;
  readonly available?: boolean;
}

/** The error a fake gives for a network failure: retryable, as a broken link is. */
export function unavailableError(address: string, what = "connection refused"): RpcError {
  return new RpcError(`fake provider ${address}: ${what}`, Code.Unavailable);
}

/**
 * A scripted provider for cluster tests: queue steps (fail N times, throw a business error, hang
 * until aborted), switch availability, and read back how it was called. It keeps the promises of
 * the product's invokers and no more (test/contract/invoker-contract.ts runs the same cases on
 * both): each attempt waits at most its `timeout`, an aborted signal ends the wait at once, and a
 * destroyed fake refuses calls.
 */
export class FakeInvoker implements Invoker {
  readonly url: Url;
  readonly address: string;
  /** Every invocation received, in order. */
  readonly invocations: Invocation[] = [];
  /** Calls whose wait ended because their signal aborted. */
  aborted = 0;
  /** Calls started but not yet settled. */
  inFlight = 0;
  latencyMs: number;
  destroyed = false;
  #available: boolean;
  #script: FakeStep[] = [];
  #otherwise: FakeStep;
  #timeouts: AttemptTimeouts;

  constructor(options: FakeInvokerOptions = {}) {
    this.url = options.url ?? fakeUrl(options);
    this.address = this.url.address;
    this.latencyMs = options.latencyMs ?? 0;
    this.#available = options.available ?? true;
    this.#otherwise = options.otherwise ?? { kind: "return", value: this.address };
    this.#timeouts = new AttemptTimeouts(this.url);
  }

  get calls(): number {
    return this.invocations.length;
  }

  get lastInvocation(): Invocation | undefined {
    return this.invocations[this.invocations.length - 1];
  }

  /** Queues steps used by the next calls, one each, before falling back to `otherwise`. */
  script(...steps: FakeStep[]): this {
    this.#script.push(...steps);
    return this;
  }

  /** The next `times` calls fail with `error` (default: a retryable Unavailable error). */
  failTimes(times: number, error: unknown = unavailableError(this.address)): this {
    for (let i = 0; i < times; i++) this.#script.push({ kind: "throw", error });
    return this;
  }

  /** The next call throws the provider's own exception. */
  throwBizError(message = "business failure", javaClass = "java.lang.IllegalStateException"): this {
    this.#script.push({ kind: "throw", error: new BizError(message, { javaClass }) });
    return this;
  }

  /** The next `times` calls hang until their invocation is aborted. */
  hangTimes(times = 1): this {
    for (let i = 0; i < times; i++) this.#script.push({ kind: "hang" });
    return this;
  }

  /** What every call does once the script is used up. */
  always(step: FakeStep): this {
    this.#otherwise = step;
    return this;
  }

  /** Every call fails with `error` from now on (after the script). */
  alwaysFail(error: unknown = unavailableError(this.address)): this {
    return this.always({ kind: "throw", error });
  }

  /** Every call returns `value` from now on (after the script). */
  alwaysReturn(value: unknown): this {
    return this.always({ kind: "return", value });
  }

  setAvailable(available: boolean): this {
    this.#available = available;
    return this;
  }

  isAvailable(): boolean {
    return this.#available && !this.destroyed;
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
  }

  async invoke(inv: Invocation): Promise<RpcResult> {
    if (this.destroyed) {
      throw new RpcError(
        `${this.url.serviceInterface}.${inv.method}: the fake reference to ${this.address} was destroyed`,
        Code.Unavailable,
      );
    }
    if (inv.signal.aborted) {
      throw canceledError(
        `${inv.method} to fake provider ${this.address} (before sending)`,
        inv.signal.reason,
      );
    }
    this.invocations.push(inv);
    const step = this.#script.shift() ?? this.#otherwise;
    const timeoutMs = this.#timeouts.of(inv);
    const started = Date.now();
    const timedOut = (): RpcError =>
      attemptTimeoutError({
        service: this.url.serviceInterface,
        method: inv.method,
        address: this.address,
        elapsedMs: Date.now() - started,
        timeoutMs,
      });
    if (timeoutMs <= 0) throw timedOut();
    this.inFlight++;
    // An aborted or timed-out wait is released at once, as the product's pending table releases it.
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.inFlight--;
    };
    const ended = (): RpcError => {
      release();
      return timedOut();
    };
    try {
      if (this.latencyMs > 0) await this.#wait(inv.signal, this.latencyMs, timeoutMs, ended, release);
      switch (step.kind) {
        case "return":
          return resultOf(step.value);
        case "throw":
          throw step.error;
        case "hang":
          await this.#wait(inv.signal, undefined, timeoutMs, ended, release);
          throw new RpcError(`fake provider ${this.address}: hang ended unexpectedly`, Code.Internal);
      }
    } finally {
      release();
    }
  }

  /**
   * Resolves after `ms` (or never, when undefined); rejects once the signal aborts, or with
   * `timedOut()` when the attempt's `timeoutMs` passes first.
   */
  #wait(
    signal: AbortSignal,
    ms: number | undefined,
    timeoutMs: number,
    timedOut: () => RpcError,
    onAborted: () => void,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        clearTimeout(deadline);
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = (): void => {
        finish();
        onAborted();
        this.aborted++;
        reject(abortReason(signal, this.address));
      };
      const timer =
        ms === undefined || ms >= timeoutMs
          ? undefined
          : setTimeout(() => {
              finish();
              resolve();
            }, ms);
      const deadline = setTimeout(() => {
        finish();
        reject(timedOut());
      }, timeoutMs);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

function abortReason(signal: AbortSignal, address: string): RpcError {
  const reason: unknown = signal.reason;
  if (reason instanceof RpcError) return reason;
  return new RpcError(`fake provider ${address}: call canceled`, Code.Canceled, { cause: reason });
}

function fakeUrl(options: FakeInvokerOptions): Url {
  const address = options.address ?? "127.0.0.1:20880";
  const colon = address.lastIndexOf(":");
  const host = colon >= 0 ? address.slice(0, colon) : address;
  const port = colon >= 0 ? Number(address.slice(colon + 1)) : 20880;
  const service = options.service ?? "com.example.DemoService";
  return new Url({
    protocol: options.protocol ?? "dubbo",
    host,
    port,
    path: service,
    params: { interface: service, ...options.params },
  });
}

/** `count` fakes on 127.0.0.1 ports 20880, 20881, …, each with the same options. */
export function createFakeInvokers(
  count: number,
  options: Omit<FakeInvokerOptions, "address" | "url"> = {},
): FakeInvoker[] {
  return Array.from(
    { length: count },
    (_, i) => new FakeInvoker({ ...options, address: `127.0.0.1:${20880 + i}` }),
  );
}
