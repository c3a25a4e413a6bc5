import { DEFAULT_SHARE_CONNECTIONS } from "../core/index.js";
import type { Connectable, ManagedConnection } from "./managed-connection.js";

/** A hold on the shared connections of one address; release it once. */
export interface ConnectionLease<C extends Connectable> {
  readonly address: string;
  readonly connections: readonly ManagedConnection<C>[];
  /** Drops this hold; the last one closes the connections. */
  release(): Promise<void>;
}

/**
 * The shared connections of one application (`connections=0`): every reference to the same address
 * uses the same `shareconnections` links, reference-counted, closed when the last reference goes.
 * Create one per application; nothing here is global.
 */
export interface ConnectionPool<C extends Connectable, S> {
  /** A hold on `address`'s links; the first hold makes them from its `settings`, as Java does. */
  acquire(address: string, settings: S): ConnectionLease<C>;
  /** Addresses with at least one holder. */
  readonly addresses: readonly string[];
  /** Closes everything regardless of holders. */
  close(): Promise<void>;
}

export interface ConnectionPoolOptions<C extends Connectable, S> {
  /** Makes the managed connection for `address`; `index` counts the shared links of that address. */
  readonly create: (address: string, index: number, settings: S) => ManagedConnection<C>;
  /** `shareconnections`: links per address. */
  readonly shareConnections?: number;
}

interface Entry<C extends Connectable> {
  readonly connections: ManagedConnection<C>[];
  refs: number;
}

/** One hold; a class so that each of a consumer's many references pays no closure for it. */
class PoolLease<C extends Connectable> implements ConnectionLease<C> {
  readonly address: string;
  readonly #entry: Entry<C>;
  readonly #entries: Map<string, Entry<C>>;
  #released = false;

  constructor(address: string, entry: Entry<C>, entries: Map<string, Entry<C>>) {
    this.address = address;
    this.#entry = entry;
    this.#entries = entries;
  }

  get connections(): readonly ManagedConnection<C>[] {
    return this.#entry.connections;
  }

  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    const entry = this.#entry;
    entry.refs -= 1;
    if (entry.refs > 0 || this.#entries.get(this.address) !== entry) return;
    this.#entries.delete(this.address);
    await Promise.all(entry.connections.map((c) => c.close()));
  }
}

export function createConnectionPool<C extends Connectable, S>(
  options: ConnectionPoolOptions<C, S>,
): ConnectionPool<C, S> {
  const perAddress = Math.max(1, options.shareConnections ?? DEFAULT_SHARE_CONNECTIONS);
  const entries = new Map<string, Entry<C>>();

  return {
    get addresses() {
      return [...entries.keys()];
    },
    acquire(address, settings) {
      let entry = entries.get(address);
      if (entry === undefined) {
        const connections: ManagedConnection<C>[] = [];
        for (let i = 0; i < perAddress; i++) connections.push(options.create(address, i, settings));
        entry = { connections, refs: 0 };
        entries.set(address, entry);
      }
      entry.refs += 1;
      return new PoolLease(address, entry, entries);
    },
    async close() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.flatMap((e) => e.connections.map((c) => c.close())));
    },
  };
}
