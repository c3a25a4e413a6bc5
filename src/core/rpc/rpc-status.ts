import type { Url } from "../url/url.js";

/**
 * Consumer-side call statistics of one (provider, method): how many calls are in flight and how
 * long finished ones took. Least-active and shortest-response balancing read it; the cluster's
 * attempt step writes it around every provider call.
 */
export class RpcStatus {
  /** Calls started and not yet finished. */
  active = 0;
  total = 0;
  failed = 0;
  totalElapsedMs = 0;
  failedElapsedMs = 0;
  maxElapsedMs = 0;

  get succeeded(): number {
    return this.total - this.failed;
  }

  /** Mean duration of successful calls, ms (0 before the first one, as Java). */
  get succeededAverageElapsedMs(): number {
    const succeeded = this.succeeded;
    return succeeded === 0 ? 0 : (this.totalElapsedMs - this.failedElapsedMs) / succeeded;
  }
}

/**
 * The statistics of one application, keyed by the provider's identity (`protocol://host:port/path`,
 * as Java's `toIdentityString`) and method, so a provider URL re-announced with other parameters
 * keeps its counters. Create one per application and share it between the cluster and the filters.
 */
export class RpcStatusTable {
  readonly #byProvider = new Map<string, Map<string, RpcStatus>>();
  readonly #identity = new WeakMap<Url, string>();

  /** The status of `method` on the provider at `url`, created on first use. */
  of(url: Url, method: string): RpcStatus {
    const id = this.#identityOf(url);
    let methods = this.#byProvider.get(id);
    if (methods === undefined) {
      methods = new Map();
      this.#byProvider.set(id, methods);
    }
    let status = methods.get(method);
    if (status === undefined) {
      status = new RpcStatus();
      methods.set(method, status);
    }
    return status;
  }

  /** Marks a call started; returns the status so the caller can end it without a second lookup. */
  begin(url: Url, method: string): RpcStatus {
    const status = this.of(url, method);
    status.active++;
    return status;
  }

  /** Marks a call finished (a provider's business exception counts as a success: it answered). */
  static end(status: RpcStatus, elapsedMs: number, succeeded: boolean): void {
    status.active = Math.max(0, status.active - 1);
    status.total++;
    status.totalElapsedMs += elapsedMs;
    if (elapsedMs > status.maxElapsedMs) status.maxElapsedMs = elapsedMs;
    if (!succeeded) {
      status.failed++;
      status.failedElapsedMs += elapsedMs;
    }
  }

  /** Forgets a provider that is gone for good. */
  remove(url: Url): void {
    this.#byProvider.delete(this.#identityOf(url));
  }

  #identityOf(url: Url): string {
    let id = this.#identity.get(url);
    if (id === undefined) {
      id = `${url.protocol}://${url.address}/${url.path}`;
      this.#identity.set(url, id);
    }
    return id;
  }
}
