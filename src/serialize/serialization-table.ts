import { Code, DEFAULT_SERIALIZATION, type ExtensionPoint, RpcError } from "../core/index.js";
import type { Serialization } from "./serialization.js";

/** The header has five bits for the id (Java's `Serialization.getContentTypeId()`). */
const MAX_ID = 31;

/**
 * An application's serializations by frame-header id, from its `serialization` extension point:
 * the dubbo protocol reads a body by its header's id and writes one by the name a URL gives. The
 * index is rebuilt when an id or name is missing, so a serialization registered after the
 * protocol started is still found; the hot path is one array read.
 */
export class SerializationTable {
  readonly #point: ExtensionPoint<Serialization>;
  #byId: Array<Serialization | undefined> = [];

  constructor(point: ExtensionPoint<Serialization>) {
    this.#point = point;
  }

  /** The serialization a header id names, or undefined when this application has none with it. */
  byId(id: number): Serialization | undefined {
    return this.#byId[id] ?? this.#reindex()[id];
  }

  /** The serialization registered as `name`, or undefined. */
  byName(name: string): Serialization | undefined {
    return this.#point.has(name) ? this.#point.get(name) : undefined;
  }

  /** `hessian2 (id 2), fastjson (id 6)`: what an error about an unknown id or name lists. */
  describe(): string {
    const all = [...this.#point.entries()].map(([name, s]) => `${name} (id ${s.id})`);
    return all.join(", ") || "none";
  }

  /**
   * Checks every registered serialization (an id of 1 to 31, unique), so a plugin's mistake fails
   * the application at start with the names involved, not a call later.
   */
  assertValid(): void {
    this.#reindex();
  }

  #reindex(): Array<Serialization | undefined> {
    const byId: Array<Serialization | undefined> = [];
    const names: string[] = [];
    for (const [name, serialization] of this.#point.entries()) {
      const id = serialization.id;
      if (!Number.isInteger(id) || id < 1 || id > MAX_ID) {
        throw new RpcError(
          `serialization "${name}" has id ${String(id)}: a Dubbo frame header carries ids 1 to ${MAX_ID} (Java's getContentTypeId)`,
          Code.InvalidArgument,
        );
      }
      const taken = byId[id];
      if (taken !== undefined) {
        throw new RpcError(
          `serializations "${names[id]}" and "${name}" both use id ${id}; a peer could not tell their bodies apart (give "${name}" an unused id)`,
          Code.InvalidArgument,
        );
      }
      byId[id] = serialization;
      names[id] = name;
    }
    this.#byId = byId;
    return byId;
  }
}

/**
 * The serialization a consumer writes with, as Java 3 picks it (`UrlUtils.serializationId`): the
 * first of `prefer.serialization` this application has, else `serialization`, else hessian2. A
 * name this application lacks (a Java provider's `kryo`) is skipped, as Java skips it: every
 * provider reads hessian2.
 */
export function preferredSerialization(
  table: SerializationTable,
  prefer: string | undefined,
  configured: string | undefined,
): Serialization {
  for (const name of [...(prefer ?? "").split(","), configured ?? "", DEFAULT_SERIALIZATION]) {
    const found = name.trim() === "" ? undefined : table.byName(name.trim());
    if (found !== undefined) return found;
  }
  throw new RpcError(
    `no serialization to write requests with: neither prefer.serialization=${prefer ?? ""} nor ` +
      `serialization=${configured ?? ""} nor ${DEFAULT_SERIALIZATION} is registered (registered: ${table.describe()})`,
    Code.FailedPrecondition,
  );
}
