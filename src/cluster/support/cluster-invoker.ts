import {
  BizError,
  Code,
  DEFAULT_AVAILABLE_CHECK,
  DEFAULT_STICKY,
  deriveInvocation,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  type RpcStatus,
  RpcStatusTable,
  type Url,
} from "../../core/index.js";
import { invokeListening, invokeSafely, type SettledListener } from "../../filter/index.js";
import type { ClusterContext, Directory, LoadBalance, LoadBalanceContext } from "../contracts.js";
import { loadBalanceName } from "../loadbalance/weight.js";
import { bindContextAttachments, forwardedAttachments, PINPOINT_KEY, pinpointOf } from "./attachments.js";
import { noProviderError } from "./no-provider-error.js";

const NOTHING_TRIED: readonly Invoker[] = Object.freeze([]);

/** A failed attempt as a strategy's recovery sees it: what failover's retries start from. */
interface FailedAttempt {
  readonly inv: Invocation;
  readonly invoker: Invoker;
  /** The candidates the attempt was chosen among. */
  readonly invokers: readonly Invoker[];
  readonly lb: LoadBalance;
}

/**
 * What a strategy makes of a failed attempt (failover: a retry). Made once per cluster invoker:
 * the call's own state comes in `attempt`, so a call makes no recovery closure of its own.
 */
export type AttemptRecovery = (error: unknown, attempt: FailedAttempt) => Promise<RpcResult>;

/**
 * The common part of every cluster strategy, with Java's AbstractClusterInvoker semantics:
 * context attachments bound before selection, routers applied by the directory, the balancer
 * chosen per method, `sticky`, `cluster.availablecheck`, reselect preferring providers not yet
 * tried, and a no-provider error that explains every known provider. Subclasses write `doInvoke`.
 */
export abstract class AbstractClusterInvoker implements Invoker {
  readonly url: Url;
  protected readonly directory: Directory;
  protected readonly context: ClusterContext;
  protected readonly availableCheck: boolean;
  #sticky: Invoker | undefined;
  #destroyed = false;
  readonly #balancers = new Map<string, LoadBalance>();
  readonly #balancerByMethod = new Map<
    string,
    { readonly from: Url | undefined; readonly lb: LoadBalance }
  >();

  readonly #stickyByMethod = new Map<string, { readonly from: Url; readonly sticky: boolean }>();

  /** What this invoker's balancers see: the application's randomness, clock and statistics. */
  readonly #balancing: LoadBalanceContext;

  constructor(directory: Directory, context: ClusterContext) {
    this.directory = directory;
    this.context = context;
    this.#balancing = {
      random: () => context.random(),
      now: context.now === undefined ? Date.now : () => context.now!(),
      rpcStatus: context.rpcStatus ?? new RpcStatusTable(),
    };
    this.url = directory.url;
    this.availableCheck = directory.url.boolean("cluster.availablecheck", DEFAULT_AVAILABLE_CHECK);
  }

  isAvailable(): boolean {
    if (this.#destroyed) return false;
    if (this.#sticky !== undefined) return this.#sticky.isAvailable();
    return this.directory.isAvailable();
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.directory.destroy();
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    // Not an async function: the strategy's promise is returned as is, one promise layer fewer.
    try {
      this.checkDestroyed(inv);
      const bound = bindContextAttachments(inv, this.context);
      const invokers = this.directory.list(bound);
      return this.doInvoke(bound, invokers, this.loadBalance(invokers, bound));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  protected abstract doInvoke(
    inv: Invocation,
    invokers: readonly Invoker[],
    loadBalance: LoadBalance,
  ): Promise<RpcResult>;

  protected checkDestroyed(inv: Invocation): void {
    if (this.#destroyed) {
      throw new RpcError(
        `the ${this.url.serviceKey} reference is destroyed; ${inv.method} can no longer be called`,
        Code.Unavailable,
      );
    }
  }

  /** Re-lists providers (between retries), routers applied. */
  protected list(inv: Invocation): readonly Invoker[] {
    this.checkDestroyed(inv);
    return this.directory.list(inv);
  }

  /** The balancer for this method, created once per name and reused (round robin keeps state). */
  protected loadBalance(invokers: readonly Invoker[], inv: Invocation): LoadBalance {
    const from = invokers[0]?.url;
    const cached = this.#balancerByMethod.get(inv.method);
    if (cached !== undefined && cached.from === from) return cached.lb;
    const name = loadBalanceName(this.url, inv.method, from);
    let lb = this.#balancers.get(name);
    if (lb === undefined) {
      lb = this.context.loadBalance(name)(this.#balancing);
      this.#balancers.set(name, lb);
    }
    this.#balancerByMethod.set(inv.method, { from, lb });
    return lb;
  }

  /** The error for an empty candidate list, explaining every provider the directory knows. */
  protected noProvider(
    inv: Invocation,
    tried: readonly Invoker[] = NOTHING_TRIED,
    cause?: unknown,
  ): RpcError {
    return noProviderError(this.directory, inv, tried, this.availableCheck, cause);
  }

  /**
   * Picks one provider among `invokers`, avoiding `tried` ones where possible, branch for branch
   * as Java's AbstractClusterInvoker.select/doSelect: the sticky provider is reused only with
   * `cluster.availablecheck` on and while it is available (with the check off, Java never reuses
   * it and picks again each call); a single candidate is returned as is, available or not; a
   * pick that was tried or is unavailable is reselected, and when reselect finds nothing the next
   * index is taken as is. Throws the no-provider error when `invokers` is empty.
   */
  protected select(
    lb: LoadBalance,
    inv: Invocation,
    invokers: readonly Invoker[],
    tried: readonly Invoker[] = NOTHING_TRIED,
  ): Invoker {
    if (invokers.length === 0) throw this.noProvider(inv, tried);
    const pinpoint = pinpointOf(inv);
    if (pinpoint !== undefined) return this.#pinpointed(pinpoint, inv, invokers);
    const sticky = this.#stickyFor(inv.method, invokers[0]!.url);
    if (this.#sticky !== undefined && !invokers.includes(this.#sticky)) this.#sticky = undefined;
    if (sticky && this.#sticky !== undefined && !tried.includes(this.#sticky)) {
      if (this.availableCheck && this.#sticky.isAvailable()) return this.#sticky;
    }
    const chosen = this.#doSelect(lb, inv, invokers, tried);
    if (sticky) this.#sticky = chosen;
    return chosen;
  }

  /** `sticky` for a method: the provider's setting over the reference's, read once per provider URL. */
  #stickyFor(method: string, from: Url): boolean {
    const cached = this.#stickyByMethod.get(method);
    if (cached !== undefined && cached.from === from) return cached.sticky;
    const sticky = from.methodBoolean(
      method,
      "sticky",
      this.url.methodBoolean(method, "sticky", DEFAULT_STICKY),
    );
    this.#stickyByMethod.set(method, { from, sticky });
    return sticky;
  }

  #doSelect(
    lb: LoadBalance,
    inv: Invocation,
    invokers: readonly Invoker[],
    tried: readonly Invoker[],
  ): Invoker {
    if (invokers.length === 1) return invokers[0]!;
    const chosen = lb.select(invokers, this.url, inv);
    if (!tried.includes(chosen) && (!this.availableCheck || chosen.isAvailable())) return chosen;
    return (
      this.#reselect(lb, inv, invokers, tried) ?? invokers[(invokers.indexOf(chosen) + 1) % invokers.length]!
    );
  }

  /** Untried (and available) providers first; then available ones among the tried. */
  #reselect(
    lb: LoadBalance,
    inv: Invocation,
    invokers: readonly Invoker[],
    tried: readonly Invoker[],
  ): Invoker | undefined {
    const fresh = invokers.filter((i) => (!this.availableCheck || i.isAvailable()) && !tried.includes(i));
    if (fresh.length > 0) return lb.select(fresh, this.url, inv);
    const retriable = tried.filter((i) => i.isAvailable() && invokers.includes(i));
    if (retriable.length > 0) return lb.select(retriable, this.url, inv);
    return undefined;
  }

  #pinpointed(address: string, inv: Invocation, invokers: readonly Invoker[]): Invoker {
    const target = invokers.find((i) => i.url.address === address);
    if (target !== undefined) return target;
    const known = this.directory
      .all()
      .map((i) => i.url.address)
      .join(", ");
    const why = this.directory.all().some((i) => i.url.address === address)
      ? "is known but excluded for this call (router or availability)"
      : "is not a known provider";
    throw new RpcError(
      `${PINPOINT_KEY}=${address} for ${this.url.serviceKey} method ${inv.method} ${why}; known providers: ${known || "none"}`,
      Code.Unavailable,
    );
  }

  /**
   * One call to one provider, refused once the call was canceled or its overall deadline (only
   * when one is set, e.g. by forking) has passed, counted in the consumer-side statistics when the
   * application keeps them. The provider sees the invocation without the cluster's routing hints
   * (a derived one when the call named a pinpoint address; invocations are immutable, so
   * otherwise the same one). The attempt's own `timeout` is enforced below, by the protocol
   * invoker, so a timed-out attempt comes back here as a retryable `DeadlineExceeded`.
   * Not an async function: the outcome (the statistics, and for a failure what `recover` makes of
   * its error, a retry) is handled by one `AttemptOutcome`, which `invokeListening` runs in the
   * promise step the provider invoker's filter chain starts with (its own step for an invoker
   * without one): no async frame nor promise of the cluster's per attempt.
   */
  protected attempt(invoker: Invoker, inv: Invocation): Promise<RpcResult>;
  /** With `recover`, the candidates and balancer the attempt was chosen by, for the recovery. */
  protected attempt(
    invoker: Invoker,
    inv: Invocation,
    recover: AttemptRecovery,
    invokers: readonly Invoker[],
    lb: LoadBalance,
  ): Promise<RpcResult>;
  protected attempt(
    invoker: Invoker,
    inv: Invocation,
    recover?: AttemptRecovery,
    invokers: readonly Invoker[] = NOTHING_TRIED,
    lb?: LoadBalance,
  ): Promise<RpcResult> {
    if (inv.signal.aborted || (inv.deadline !== undefined && Date.now() >= inv.deadline)) {
      const error = inv.signal.aborted
        ? RpcError.from(inv.signal.reason, Code.Canceled)
        : new RpcError(
            `deadline exceeded before calling ${this.url.serviceKey} method ${inv.method} on ${invoker.url.address} (the call's overall deadline passed)`,
            Code.DeadlineExceeded,
          );
      return recover === undefined
        ? Promise.reject(error)
        : recover(error, { inv, invoker, invokers, lb: lb! });
    }
    const attachments = forwardedAttachments(inv.attachments);
    const attemptInv = attachments === inv.attachments ? inv : deriveInvocation(inv, { attachments });
    const table = this.context.rpcStatus;
    if (table === undefined && recover === undefined) return invokeSafely(invoker, attemptInv);
    const status = table?.begin(invoker.url, inv.method);
    return invokeListening(
      invoker,
      attemptInv,
      new AttemptOutcome(status, recover, inv, invoker, invokers, lb),
    );
  }
}

/**
 * What settles one attempt: its end in the statistics (a business error counts as a success: the
 * provider answered), then, for a failure, the recovery, handed this object as the failed attempt.
 * One object per attempt, its methods shared.
 */
class AttemptOutcome implements SettledListener {
  readonly #status: RpcStatus | undefined;
  readonly #recover: AttemptRecovery | undefined;
  readonly #started: number;

  constructor(
    status: RpcStatus | undefined,
    recover: AttemptRecovery | undefined,
    readonly inv: Invocation,
    readonly invoker: Invoker,
    readonly invokers: readonly Invoker[],
    readonly lb: LoadBalance | undefined,
  ) {
    this.#status = status;
    this.#recover = recover;
    this.#started = status === undefined ? 0 : performance.now();
  }

  onResponse(result: RpcResult): RpcResult {
    if (this.#status !== undefined) RpcStatusTable.end(this.#status, performance.now() - this.#started, true);
    return result;
  }

  onError(error: unknown): Promise<RpcResult> {
    if (this.#status !== undefined) {
      RpcStatusTable.end(this.#status, performance.now() - this.#started, error instanceof BizError);
    }
    // `attempt`'s overloads give a recovering attempt its candidates and balancer.
    if (this.#recover !== undefined) return this.#recover(error, this as FailedAttempt);
    throw error;
  }
}
