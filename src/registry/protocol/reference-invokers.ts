import type { Directory } from "../../cluster/index.js";
import { Code, type Invocation, type Invoker, RpcError, type RpcResult, type Url } from "../../core/index.js";
import type { RegistryDirectory } from "../directory/registry-directory.js";

/** Builds the cluster invoker of one directory (the app binds `createClusterInvoker` to its context). */
export type ClusterBuilder = (directory: Directory) => Invoker;

/**
 * The directory as the cluster sees it: the URL the rules and the providers' settings produced,
 * except `cluster`, which stays the consumer's own (Java's `RegistryProtocol.refer` picks the
 * strategy once from the reference's settings since 2.7.8; a provider's or a rule's `cluster`
 * never changes it).
 */
function withUrl(directory: RegistryDirectory, url: Url): Directory {
  const ownCluster = directory.url.get("cluster");
  return {
    url: url.withParams({ cluster: ownCluster }),
    list: (inv) => directory.list(inv),
    all: () => directory.all(),
    excluded: () => directory.excluded(),
    explain: (inv) => directory.explain(inv),
    nearMisses: () => directory.nearMisses(),
    isAvailable: () => directory.isAvailable(),
    // The reference destroys the real directory once; a replaced cluster invoker must not.
    destroy: async () => {},
  };
}

/**
 * The cluster invoker of one registry's directory, rebuilt when the reference URL changes (by
 * override rules or the providers' settings: Java's MockClusterInvoker and cluster invokers read
 * `directory.getConsumerUrl()` per call; ours read it once, so a service-wide `mock=force:…`,
 * `retries` or `loadbalance` rule, or a provider's registered `retries`, gets a new cluster
 * invoker). The replaced one is dropped, not destroyed: calls in flight finish on it.
 */
export class DirectoryClusterInvoker implements Invoker {
  readonly directory: RegistryDirectory;
  readonly #build: ClusterBuilder;
  readonly #stopListening: () => void;
  #current: Invoker;

  constructor(directory: RegistryDirectory, build: ClusterBuilder) {
    this.directory = directory;
    this.#build = build;
    this.#current = this.#create(directory.overriddenUrl);
    this.#stopListening = directory.onUrlChange((url) => {
      this.#current = this.#create(url);
    });
  }

  get url(): Url {
    return this.#current.url;
  }

  get definition() {
    return this.#current.definition;
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    return this.#current.invoke(inv);
  }

  isAvailable(): boolean {
    return this.#current.isAvailable();
  }

  async destroy(): Promise<void> {
    this.#stopListening();
    await this.#current.destroy().catch(() => {});
    await this.directory.destroy();
  }

  #create(url: Url): Invoker {
    return this.#build(url === this.directory.url ? this.directory : withUrl(this.directory, url));
  }
}

/**
 * A reference over several registries (Java's registry-aware cluster): the registry marked
 * `preferred=true` while it has an available provider, else the first registry that has one, else
 * the first registry (whose no-provider error explains every provider it knows).
 */
export function joinRegistries(invokers: readonly Invoker[], preferred: number): Invoker {
  const first = invokers[0];
  if (first === undefined) {
    throw new RpcError("joinRegistries needs at least one registry", Code.InvalidArgument);
  }
  const pick = (): Invoker => {
    const favourite = invokers[preferred];
    if (favourite?.isAvailable()) return favourite;
    return invokers.find((i) => i.isAvailable()) ?? first;
  };
  return {
    get url() {
      return first.url;
    },
    invoke: (inv) => pick().invoke(inv),
    isAvailable: () => invokers.some((i) => i.isAvailable()),
    destroy: async () => {
      await Promise.all(invokers.map((i) => i.destroy()));
    },
  };
}

/**
 * Address wait (SOFARPC): until the reference has seen a provider, calls wait up to `waitMs`
 * after the reference was created for the registries to deliver one; after that, or once any
 * provider was seen, calls go straight through (and fail with the no-provider error when none).
 */
export function withAddressWait(
  invoker: Invoker,
  directories: readonly RegistryDirectory[],
  waitMs: number,
): Invoker {
  if (waitMs <= 0) return invoker;
  const deadline = Date.now() + waitMs;
  let over = false;
  const seen = (): boolean => directories.some((d) => d.all().length > 0);
  const wait = async (): Promise<void> => {
    const remaining = deadline - Date.now();
    if (remaining > 0) await Promise.race(directories.map((d) => d.waitForProviders(remaining)));
    over = true;
  };
  return {
    get url() {
      return invoker.url;
    },
    get definition() {
      return invoker.definition;
    },
    async invoke(inv) {
      if (!over) {
        if (seen()) over = true;
        else await wait();
      }
      return invoker.invoke(inv);
    },
    isAvailable: () => invoker.isAvailable(),
    destroy: () => invoker.destroy(),
  };
}
