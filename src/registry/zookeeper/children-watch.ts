import type { ZkClient } from "./zk-client.js";

export type ChildrenSubscriber = (children: readonly string[]) => void;

/**
 * The children of one ZooKeeper path, kept current by a watch that is re-armed on every event
 * (ZooKeeper watches fire once). One watch per path serves every subscription on it; subscribers
 * hear only real changes. A failed re-read is reported and never turned into an empty list: the
 * registry re-reads every watched path when the connection comes back.
 */
export class ChildrenWatch {
  readonly path: string;
  readonly #client: ZkClient;
  readonly #onError: (path: string, error: unknown) => void;
  readonly #subscribers = new Set<ChildrenSubscriber>();
  #children: readonly string[] | undefined;
  #fingerprint = "";
  #closed = false;
  // One stable function per path, so the library keeps a single watcher however often we re-arm.
  readonly #watcher = (): void => {
    if (this.#closed) return;
    this.refresh().catch((error: unknown) => this.#onError(this.path, error));
  };

  constructor(path: string, client: ZkClient, onError: (path: string, error: unknown) => void) {
    this.path = path;
    this.#client = client;
    this.#onError = onError;
  }

  /** The children last read, or undefined before the first read. */
  get children(): readonly string[] | undefined {
    return this.#children;
  }

  get size(): number {
    return this.#subscribers.size;
  }

  add(subscriber: ChildrenSubscriber): void {
    this.#subscribers.add(subscriber);
  }

  delete(subscriber: ChildrenSubscriber): void {
    this.#subscribers.delete(subscriber);
  }

  /** Reads the children and re-arms the watch; subscribers hear about it if the set changed. */
  async refresh(): Promise<readonly string[]> {
    const children = (await this.#client.getChildren(this.path, this.#watcher)) ?? [];
    if (this.#closed) return children;
    const fingerprint = [...children].sort().join("/");
    const changed = this.#children === undefined || fingerprint !== this.#fingerprint;
    this.#children = children;
    this.#fingerprint = fingerprint;
    if (changed) {
      for (const subscriber of [...this.#subscribers]) {
        try {
          subscriber(children);
        } catch (error) {
          this.#onError(this.path, error);
        }
      }
    }
    return children;
  }

  close(): void {
    this.#closed = true;
    this.#subscribers.clear();
  }
}
