import {
  BizError,
  Code,
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
  /** Never settles until the invocation's signal aborts; then rejects with the abort reason. */
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
  /** Delay before each call settles, ms (aborts early when the invocation's signal aborts). */
  readonly latencyMs?: number;
  readonly available?: boolean;
}

/** The error a fake gives for a network failure: retryable, as a broken link is. */
export function unavailableError(address: string, what = "connection refused"): RpcError {
  return new RpcError(`fake provider ${address}: ${what}`, Code.Unavailable);
}

/**
 * A scripted provider for cluster tests: queue steps (fail N times, throw a business error, hang
 * until aborted), switch availability, and read back how it was called.
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

  constructor(options: FakeInvokerOptions = {}) {
    this.url = options.url ?? fakeUrl(options);
    this.address = this.url.address;
    this.latencyMs = options.latencyMs ?? 0;
    this.#available = options.available ?? true;
    this.#otherwise = options.otherwise ?? { kind: "return", value: this.address };
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
    this.invocations.push(inv);
    const step = this.#script.shift() ?? this.#otherwise;
    this.inFlight++;
    try {
      if (this.latencyMs > 0) await this.#wait(inv.signal, this.latencyMs);
      switch (step.kind) {
        case "return":
          return resultOf(step.value);
        case "throw":
          throw step.error;
        case "hang":
          await this.#wait(inv.signal, undefined);
          throw new RpcError(`fake provider ${this.address}: hang ended unexpectedly`, Code.Internal);
      }
    } finally {
      this.inFlight--;
    }
  }

  /** Resolves after `ms` (or never, when undefined); rejects once the signal aborts. */
  #wait(signal: AbortSignal, ms: number | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        this.aborted++;
        reject(abortReason(signal, this.address));
      };
      const timer =
        ms === undefined
          ? undefined
          : setTimeout(() => {
              signal.removeEventListener("abort", onAbort);
              resolve();
            }, ms);
      if (signal.aborted) {
        onAbort();
        return;
      }
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
