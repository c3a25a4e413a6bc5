import { Code, DEFAULT_CONNECTIONS, DEFAULT_LAZY, RpcError } from "../core/index.js";
import type { ConnectionLease, ConnectionPool } from "./connection-pool.js";
import type { Connectable, ManagedConnection } from "./managed-connection.js";

export interface ConnectionHolderOptions<C extends Connectable> {
  /** `connections`: dedicated links per address; 0 uses `pool` (one shared set per address). */
  readonly connections?: number;
  /** Makes a dedicated managed connection (used when `connections` > 0). */
  readonly create: (address: string, index: number) => ManagedConnection<C>;
  /** The application's shared connections (required when `connections` is 0). */
  readonly pool?: ConnectionPool<C>;
  /** `lazy`: connect on first use instead of in `connectAll`. */
  readonly lazy?: boolean;
  /** Whether an up link may take calls (e.g. not marked read-only by its provider). */
  readonly isUsable?: (target: C) => boolean;
  /** A label for errors, e.g. the service interface. */
  readonly label?: string;
}

export interface ConnectionSets {
  /** Addresses with at least one usable link. */
  readonly alive: readonly string[];
  /** Addresses whose links are all down and waiting to reconnect. */
  readonly retrying: readonly string[];
  /** Addresses never connected yet (lazy). */
  readonly uninitialized: readonly string[];
}

/**
 * The connections of one reference, as SOFARPC's AllConnectConnectionHolder keeps them: per provider
 * address, `connections` dedicated links or a lease on the shared ones, each kept up by its
 * {@link ManagedConnection}; the alive / retrying / uninitialized sets are read from their states.
 */
export interface ConnectionHolder<C extends Connectable> {
  add(address: string): void;
  remove(address: string): Promise<void>;
  readonly addresses: readonly string[];
  /**
   * Connects every address (unless `lazy`) and waits for the double check. With `check`, rejects
   * with `Unavailable` naming every address and its error when none is reachable.
   */
  connectAll(options?: { readonly check?: boolean }): Promise<void>;
  /** An up, usable link to `address`, round-robin over its links; connects a lazy one first. */
  get(address: string): Promise<C>;
  /** Like `get` without connecting or waiting: undefined when no link is up and usable. */
  current(address: string): C | undefined;
  /** Every link to `address` that is up now, usable or not (for diagnostics). */
  links(address: string): readonly C[];
  /** Whether some link (to `address`, or to any address) is up and usable. */
  isAvailable(address?: string): boolean;
  sets(): ConnectionSets;
  /** Releases shared leases and closes dedicated links. */
  close(): Promise<void>;
}

interface Slot<C extends Connectable> {
  readonly connections: readonly ManagedConnection<C>[];
  readonly lease: ConnectionLease<C> | undefined;
  next: number;
}

export function createConnectionHolder<C extends Connectable>(
  options: ConnectionHolderOptions<C>,
): ConnectionHolder<C> {
  const dedicated = options.connections ?? DEFAULT_CONNECTIONS;
  const lazy = options.lazy ?? DEFAULT_LAZY;
  const isUsable = options.isUsable ?? (() => true);
  const label = options.label === undefined ? "" : ` of ${options.label}`;
  if (dedicated <= 0 && options.pool === undefined) {
    throw new RpcError(
      "a connection holder with `connections=0` needs the application's shared connection pool",
      Code.InvalidArgument,
    );
  }
  const slots = new Map<string, Slot<C>>();

  function slotOf(address: string): Slot<C> {
    const slot = slots.get(address);
    if (slot === undefined) {
      throw new RpcError(`no provider ${address}${label} is known to this reference`, Code.Unavailable);
    }
    return slot;
  }

  function pick(slot: Slot<C>): C | undefined {
    const n = slot.connections.length;
    for (let i = 0; i < n; i++) {
      const managed = slot.connections[(slot.next + i) % n]!;
      const target = managed.current();
      if (target !== undefined && isUsable(target)) {
        slot.next = (slot.next + i + 1) % n;
        return target;
      }
    }
    return undefined;
  }

  const holder: ConnectionHolder<C> = {
    get addresses() {
      return [...slots.keys()];
    },
    add(address) {
      if (slots.has(address)) return;
      if (dedicated > 0) {
        const connections: ManagedConnection<C>[] = [];
        for (let i = 0; i < dedicated; i++) connections.push(options.create(address, i));
        slots.set(address, { connections, lease: undefined, next: 0 });
      } else {
        const lease = options.pool!.acquire(address);
        slots.set(address, { connections: lease.connections, lease, next: 0 });
      }
    },
    async remove(address) {
      const slot = slots.get(address);
      if (slot === undefined) return;
      slots.delete(address);
      if (slot.lease !== undefined) await slot.lease.release();
      else await Promise.all(slot.connections.map((c) => c.close()));
    },
    async connectAll(connectOptions = {}) {
      if (lazy) return;
      const all = [...slots.values()].flatMap((s) => s.connections);
      await Promise.all(all.map((c) => c.establish()));
      if (!connectOptions.check || slots.size === 0 || holder.isAvailable()) return;
      const reasons = all.map((c) => `${c.address} (${c.lastError?.message ?? c.state})`);
      throw new RpcError(
        `no provider${label} is reachable: ${reasons.join(", ")}; ` +
          "set `check=false` to start anyway and connect when a provider comes up",
        Code.Unavailable,
      );
    },
    async get(address) {
      const slot = slotOf(address);
      const ready = pick(slot);
      if (ready !== undefined) return ready;
      // Nothing up: connect a lazy link, or report why the first one is down.
      let lastError: unknown;
      for (const managed of slot.connections) {
        try {
          const target = await managed.get();
          if (isUsable(target)) return target;
          lastError = new RpcError(
            `the provider ${address}${label} is read-only (shutting down)`,
            Code.Unavailable,
          );
        } catch (error) {
          lastError = error;
        }
      }
      throw RpcError.from(lastError, Code.Unavailable);
    },
    current(address) {
      const slot = slots.get(address);
      return slot === undefined ? undefined : pick(slot);
    },
    links(address) {
      const slot = slots.get(address);
      if (slot === undefined) return [];
      return slot.connections.flatMap((c) => {
        const target = c.current();
        return target === undefined ? [] : [target];
      });
    },
    isAvailable(address) {
      const check = (slot: Slot<C>): boolean =>
        slot.connections.some((c) => {
          const target = c.current();
          return target !== undefined && isUsable(target);
        });
      if (address !== undefined) {
        const slot = slots.get(address);
        return slot !== undefined && check(slot);
      }
      for (const slot of slots.values()) if (check(slot)) return true;
      return false;
    },
    sets() {
      const alive: string[] = [];
      const retrying: string[] = [];
      const uninitialized: string[] = [];
      for (const [address, slot] of slots) {
        if (holder.isAvailable(address)) alive.push(address);
        else if (slot.connections.every((c) => c.state === "uninitialized")) uninitialized.push(address);
        else retrying.push(address);
      }
      return { alive, retrying, uninitialized };
    },
    async close() {
      const all = [...slots.keys()];
      await Promise.all(all.map((a) => holder.remove(a)));
    },
  };
  return holder;
}
