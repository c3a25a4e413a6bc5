import { ChildNames, type ChildrenSplice } from "./child-names.js";
import type { ZkClient } from "./zk-client.js";

/** Hears a new read of the children; `splice` places it against `previous`, the read before, if any. */
export type ChildrenSubscriber = (
  children: ChildNames,
  previous: ChildNames | undefined,
  splice: ChildrenSplice | undefined,
) => void;

/**
 * The children of one ZooKeeper path, kept current by a watch that is re-armed on every event
 * (ZooKeeper watches fire once). One watch per path serves every subscription on it; subscribers
 * hear only real changes. A failed re-read is reported and never turned into an empty list: the
 * registry re-reads every watched path when the connection comes back. A path that does not exist
 * (never created, or deleted by an ops tool) reads as no children and is watched for its creation,
 * so the watch survives the path being deleted and created again.
 */
export class ChildrenWatch {
  readonly path: string;
  readonly #client: ZkClient;
  readonly #onError: (path: string, error: unknown) => void;
  readonly #subscribers = new Set<ChildrenSubscriber>();
  #children: ChildNames | undefined;
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
  get children(): ChildNames | undefined {
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
  async refresh(): Promise<ChildNames> {
    let children = await this.#client.readChildren(this.path, this.#watcher);
    // A missing path leaves no child watch: watch for its creation instead. If it was created in
    // between, read it again (the exists watch then fires too, which only costs a re-read).
    // Bounded: a path that keeps flapping is left to the armed watch, which fires again.
    for (let attempt = 0; attempt < 3 && children === undefined && !this.#closed; attempt++) {
      if (!(await this.#client.exists(this.path, this.#watcher))) break;
      children = await this.#client.readChildren(this.path, this.#watcher);
    }
    if (children === undefined) children = ChildNames.EMPTY;
    if (this.#closed) return children;
    // Compared by the replies' bytes around the change (see child-names.ts): no string per name.
    const previous = this.#children;
    const splice = previous?.spliceTo(children);
    const changed = previous === undefined || !previous.onlyReorders(children, splice as ChildrenSplice);
    this.#children = children;
    if (changed) {
      for (const subscriber of [...this.#subscribers]) {
        try {
          subscriber(children, previous, splice);
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
