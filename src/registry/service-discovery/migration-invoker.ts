import { Code, type Invocation, type Invoker, RpcError, type RpcResult, type Url } from "../../core/index.js";
import type { DirectoryClusterInvoker } from "../protocol/reference-invokers.js";
import { type Migration, shouldMigrate } from "./migration.js";

/** The two ways a reference finds its providers in one registry. */
export type DiscoveryLevel = "interface" | "application";

/** How a {@link MigrationInvoker} gets a level's cluster (subscribed) and lets one go. */
export interface MigrationLevels {
  subscribe(level: DiscoveryLevel): Promise<DirectoryClusterInvoker>;
  release(cluster: DirectoryClusterInvoker): Promise<void>;
}

function sizeOf(cluster: DirectoryClusterInvoker): number {
  return cluster.directory.all().length;
}

/**
 * One registry's invoker of a reference under Dubbo 3 migration (Java's `MigrationInvoker` with
 * its `MigrationRuleHandler`): the interface-level cluster, the application-level one, or both.
 * `FORCE_INTERFACE` and `FORCE_APPLICATION` call one level; `APPLICATION_FIRST` keeps both and
 * sends each call to the application level while its list is non-empty and large enough against
 * the interface level's (the threshold). {@link migrate} moves a running reference to another step,
 * subscribing the level it lacks and releasing the one it no longer needs.
 */
export class MigrationInvoker implements Invoker {
  readonly #levels: MigrationLevels;
  readonly #clusters = new Map<DiscoveryLevel, DirectoryClusterInvoker>();
  #migration: Migration;
  /** Migrations run one after the other, as Java's handler holds a lock. */
  #migrating: Promise<unknown> = Promise.resolve();

  private constructor(levels: MigrationLevels, migration: Migration) {
    this.#levels = levels;
    this.#migration = migration;
  }

  /** The invoker at `migration`'s step, with the levels that step calls subscribed. */
  static async start(levels: MigrationLevels, migration: Migration): Promise<MigrationInvoker> {
    const invoker = new MigrationInvoker(levels, migration);
    for (const level of levelsOf(migration)) await invoker.#ensure(level);
    return invoker;
  }

  /** The step and threshold in force. */
  get migration(): Migration {
    return this.#migration;
  }

  /**
   * Moves to `next` (Java's `MigrationRuleHandler.doMigrate`). To `APPLICATION_FIRST` always; to a
   * `FORCE_` step only when the level it moves to has providers and, against the level it leaves,
   * meets the threshold, or `force` is set. Resolves whether `next` is in force now: a refused
   * change keeps the step before it (and releases the level it subscribed for the attempt).
   */
  migrate(next: Migration): Promise<boolean> {
    const run = this.#migrating.then(() => this.#migrate(next));
    this.#migrating = run.catch(() => undefined);
    return run;
  }

  async #migrate(next: Migration): Promise<boolean> {
    const before = this.#migration;
    if (next.step === before.step && next.threshold === before.threshold) {
      this.#migration = next;
      return true;
    }
    if (next.step === "APPLICATION_FIRST") {
      await this.#ensure("interface");
      await this.#ensure("application");
      this.#migration = next;
      return true;
    }
    const target: DiscoveryLevel = next.step === "FORCE_APPLICATION" ? "application" : "interface";
    const left: DiscoveryLevel = target === "application" ? "interface" : "application";
    const wanted = await this.#ensure(target);
    const leaving = this.#clusters.get(left);
    const accepted =
      leaving === undefined || next.force || shouldMigrate(sizeOf(wanted), sizeOf(leaving), next.threshold);
    if (accepted) {
      this.#migration = next;
      await this.#release(left);
      return true;
    }
    if (!levelsOf(before).includes(target)) await this.#release(target);
    return false;
  }

  async #ensure(level: DiscoveryLevel): Promise<DirectoryClusterInvoker> {
    const existing = this.#clusters.get(level);
    if (existing !== undefined) return existing;
    const cluster = await this.#levels.subscribe(level);
    this.#clusters.set(level, cluster);
    return cluster;
  }

  async #release(level: DiscoveryLevel): Promise<void> {
    const cluster = this.#clusters.get(level);
    if (cluster === undefined) return;
    this.#clusters.delete(level);
    await this.#levels.release(cluster);
  }

  /** The cluster calls go to now. */
  get current(): DirectoryClusterInvoker {
    const iface = this.#clusters.get("interface");
    const app = this.#clusters.get("application");
    if (iface !== undefined && app !== undefined) {
      const { step, threshold } = this.#migration;
      if (step === "FORCE_INTERFACE") return iface;
      if (step === "FORCE_APPLICATION") return app;
      return shouldMigrate(sizeOf(app), sizeOf(iface), threshold) ? app : iface;
    }
    const only = iface ?? app;
    if (only === undefined) {
      throw new RpcError("this reference was destroyed: refer to the service again", Code.Unavailable);
    }
    return only;
  }

  get url(): Url {
    return this.current.url;
  }

  get definition() {
    return this.current.definition;
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    return this.current.invoke(inv);
  }

  isAvailable(): boolean {
    return this.current.isAvailable();
  }

  async destroy(): Promise<void> {
    await this.#migrating;
    await Promise.all([this.#release("interface"), this.#release("application")]);
  }
}

/** The levels a step calls. */
function levelsOf(migration: Migration): DiscoveryLevel[] {
  if (migration.step === "FORCE_INTERFACE") return ["interface"];
  if (migration.step === "FORCE_APPLICATION") return ["application"];
  return ["interface", "application"];
}
