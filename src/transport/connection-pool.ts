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
export interface ConnectionPool<C extends Connectable> {
  acquire(address: string): ConnectionLease<C>;
  /** Addresses with at least one holder. */
  readonly addresses: readonly string[];
  /** Closes everything regardless of holders. */
  close(): Promise<void>;
}

export interface ConnectionPoolOptions<C extends Connectable> {
  /** Makes the managed connection for `address`; `index` counts the shared links of that address. */
  readonly create: (address: string, index: number) => ManagedConnection<C>;
  /** `shareconnections`: links per address. */
  readonly shareConnections?: number;
}

interface Entry<C extends Connectable> {
  readonly connections: ManagedConnection<C>[];
  refs: number;
}

export function createConnectionPool<C extends Connectable>(
  options: ConnectionPoolOptions<C>,
): ConnectionPool<C> {
  const perAddress = Math.max(1, options.shareConnections ?? DEFAULT_SHARE_CONNECTIONS);
  const entries = new Map<string, Entry<C>>();

  return {
    get addresses() {
      return [...entries.keys()];
    },
    acquire(address) {
      let entry = entries.get(address);
      if (entry === undefined) {
        const connections: ManagedConnection<C>[] = [];
        for (let i = 0; i < perAddress; i++) connections.push(options.create(address, i));
        entry = { connections, refs: 0 };
        entries.set(address, entry);
      }
      entry.refs += 1;
      const held = entry;
      let released = false;
      return {
        address,
        connections: held.connections,
        async release() {
          if (released) return;
          released = true;
          held.refs -= 1;
          if (held.refs > 0 || entries.get(address) !== held) return;
          entries.delete(address);
          await Promise.all(held.connections.map((c) => c.close()));
        },
      };
    },
    async close() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.flatMap((e) => e.connections.map((c) => c.close())));
    },
  };
}
