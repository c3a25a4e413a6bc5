import { Code, DEFAULT_CONNECTIONS, DEFAULT_LAZY, RpcError } from "../core/index.js";
import type { ConnectionLease, ConnectionPool } from "./connection-pool.js";
import type { Connectable, ManagedConnection } from "./managed-connection.js";

export interface ConnectionHolderOptions<C extends Connectable, S> {
  /** `connections`: dedicated links per address; 0 uses `pool` (one shared set per address). */
  readonly connections?: number;
  /** What `create` (or the pool, for a new address) makes a link from: the reference's settings. */
  readonly settings: S;
  /** Makes a dedicated managed connection (used when `connections` > 0). */
  readonly create: (address: string, index: number, settings: S) => ManagedConnection<C>;
  /** The application's shared connections (required when `connections` is 0). */
  readonly pool?: ConnectionPool<C, S>;
  /**
   * `lazy`: nothing but the address is kept until the first `get`, which makes (or leases) the
   * links and connects them (Java's LazyConnectExchangeClient); `connectAll` does nothing.
   */
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
  /** Whether no link to `address` was ever tried (lazy, before its first `get`). */
  isUntried(address: string): boolean;
  sets(): ConnectionSets;
  /** Releases shared leases and closes dedicated links. */
  close(): Promise<void>;
}

interface Slot<C extends Connectable> {
  /** Undefined until a lazy address is first used. */
  connections: readonly ManagedConnection<C>[] | undefined;
  lease: ConnectionLease<C> | undefined;
  next: number;
}

const NO_LINKS: readonly never[] = Object.freeze([]);
const alwaysUsable = (): boolean => true;

export function createConnectionHolder<C extends Connectable, S>(
  options: ConnectionHolderOptions<C, S>,
): ConnectionHolder<C> {
  if ((options.connections ?? DEFAULT_CONNECTIONS) <= 0 && options.pool === undefined) {
    throw new RpcError(
      "a connection holder with `connections=0` needs the application's shared connection pool",
      Code.InvalidArgument,
    );
  }
  return new SlotHolder(options);
}

/**
 * A class, not a closure set: a consumer refers one holder per provider (10 000 and more), so its
 * methods live once on the prototype and an unused lazy holder is its options, a map and a slot.
 */
class SlotHolder<C extends Connectable, S> implements ConnectionHolder<C> {
  readonly #options: ConnectionHolderOptions<C, S>;
  readonly #slots = new Map<string, Slot<C>>();

  constructor(options: ConnectionHolderOptions<C, S>) {
    this.#options = options;
  }

  get addresses(): readonly string[] {
    return [...this.#slots.keys()];
  }

  #label(): string {
    return this.#options.label === undefined ? "" : ` of ${this.#options.label}`;
  }

  #isUsable(target: C): boolean {
    return (this.#options.isUsable ?? alwaysUsable)(target);
  }

  #slotOf(address: string): Slot<C> {
    const slot = this.#slots.get(address);
    if (slot === undefined) {
      throw new RpcError(
        `no provider ${address}${this.#label()} is known to this reference`,
        Code.Unavailable,
      );
    }
    return slot;
  }

  /** Makes (dedicated) or leases (shared) the links of a slot. */
  #open(address: string, slot: Slot<C>): readonly ManagedConnection<C>[] {
    const { settings } = this.#options;
    const dedicated = this.#options.connections ?? DEFAULT_CONNECTIONS;
    if (dedicated > 0) {
      const connections: ManagedConnection<C>[] = [];
      for (let i = 0; i < dedicated; i++) connections.push(this.#options.create(address, i, settings));
      slot.connections = connections;
    } else {
      slot.lease = this.#options.pool!.acquire(address, settings);
      slot.connections = slot.lease.connections;
    }
    return slot.connections;
  }

  #pick(slot: Slot<C>): C | undefined {
    const connections = slot.connections;
    if (connections === undefined) return undefined;
    const n = connections.length;
    for (let i = 0; i < n; i++) {
      const target = connections[(slot.next + i) % n]!.current();
      if (target !== undefined && this.#isUsable(target)) {
        slot.next = (slot.next + i + 1) % n;
        return target;
      }
    }
    return undefined;
  }

  add(address: string): void {
    if (this.#slots.has(address)) return;
    const slot: Slot<C> = { connections: undefined, lease: undefined, next: 0 };
    this.#slots.set(address, slot);
    if (!(this.#options.lazy ?? DEFAULT_LAZY)) this.#open(address, slot);
  }

  async remove(address: string): Promise<void> {
    const slot = this.#slots.get(address);
    if (slot === undefined) return;
    this.#slots.delete(address);
    if (slot.lease !== undefined) await slot.lease.release();
    else if (slot.connections !== undefined) await Promise.all(slot.connections.map((c) => c.close()));
  }

  async connectAll(connectOptions: { readonly check?: boolean } = {}): Promise<void> {
    if (this.#options.lazy ?? DEFAULT_LAZY) return;
    const all = [...this.#slots.values()].flatMap((s) => s.connections ?? NO_LINKS);
    await Promise.all(all.map((c) => c.establish()));
    if (!connectOptions.check || this.#slots.size === 0 || this.isAvailable()) return;
    const reasons = all.map((c) => `${c.address} (${c.lastError?.message ?? c.state})`);
    throw new RpcError(
      `no provider${this.#label()} is reachable: ${reasons.join(", ")}; ` +
        "set `check=false` to start anyway and connect when a provider comes up",
      Code.Unavailable,
    );
  }

  async get(address: string): Promise<C> {
    const slot = this.#slotOf(address);
    const ready = this.#pick(slot);
    if (ready !== undefined) return ready;
    // Nothing up: connect a lazy link, or report why the first one is down.
    let lastError: unknown;
    for (const managed of slot.connections ?? this.#open(address, slot)) {
      try {
        const target = await managed.get();
        if (this.#isUsable(target)) return target;
        lastError = new RpcError(
          `the provider ${address}${this.#label()} is read-only (shutting down)`,
          Code.Unavailable,
        );
      } catch (error) {
        lastError = error;
      }
    }
    throw RpcError.from(lastError, Code.Unavailable);
  }

  current(address: string): C | undefined {
    const slot = this.#slots.get(address);
    return slot === undefined ? undefined : this.#pick(slot);
  }

  links(address: string): readonly C[] {
    const connections = this.#slots.get(address)?.connections;
    if (connections === undefined) return NO_LINKS;
    return connections.flatMap((c) => {
      const target = c.current();
      return target === undefined ? [] : [target];
    });
  }

  #slotIsAvailable(slot: Slot<C>): boolean {
    if (slot.connections === undefined) return false;
    for (const c of slot.connections) {
      const target = c.current();
      if (target !== undefined && this.#isUsable(target)) return true;
    }
    return false;
  }

  isAvailable(address?: string): boolean {
    if (address !== undefined) {
      const slot = this.#slots.get(address);
      return slot !== undefined && this.#slotIsAvailable(slot);
    }
    for (const slot of this.#slots.values()) if (this.#slotIsAvailable(slot)) return true;
    return false;
  }

  isUntried(address: string): boolean {
    const slot = this.#slots.get(address);
    if (slot === undefined) return false;
    return slot.connections === undefined || slot.connections.every((c) => c.state === "uninitialized");
  }

  sets(): ConnectionSets {
    const alive: string[] = [];
    const retrying: string[] = [];
    const uninitialized: string[] = [];
    for (const address of this.#slots.keys()) {
      if (this.isAvailable(address)) alive.push(address);
      else if (this.isUntried(address)) uninitialized.push(address);
      else retrying.push(address);
    }
    return { alive, retrying, uninitialized };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#slots.keys()].map((a) => this.remove(a)));
  }
}
