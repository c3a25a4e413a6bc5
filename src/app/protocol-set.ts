import { Code, DeadlineTimers, type Protocol, RpcError } from "../core/index.js";
import { wrapProtocolWithFilters } from "../filter/index.js";
import { INJVM_PROTOCOL, type InjvmProtocol } from "../protocol/injvm/index.js";
import type { AppLogger, Extensions } from "./extensions.js";

/**
 * The protocols of one application: each created once, on first use, from the protocol extension
 * point, with the filter chains around it (Java's ProtocolFilterWrapper).
 */
export class ProtocolSet {
  readonly #extensions: Extensions;
  readonly #logger: AppLogger;
  readonly #wrapped = new Map<string, Protocol>();
  readonly #raw = new Map<string, Protocol>();
  /** One timer wheel per application: every protocol's attempt timeouts share it. */
  readonly #deadlines = new DeadlineTimers({ keepAlive: true });

  constructor(extensions: Extensions, logger: AppLogger) {
    this.#extensions = extensions;
    this.#logger = logger;
  }

  /** The protocol `name`; `setting` names what asked for it, for the error when it does not exist. */
  get(name: string, setting: string): Protocol {
    const existing = this.#wrapped.get(name);
    if (existing !== undefined) return existing;
    const point = this.#extensions.protocol;
    if (!point.has(name)) {
      throw new RpcError(
        `${setting} needs protocol "${name}", which this application does not have (registered: ${point.names().join(", ")})`,
        Code.FailedPrecondition,
      );
    }
    const raw = point.get(name)({
      rpcStatus: this.#extensions.rpcStatus,
      logger: this.#logger,
      deadlines: this.#deadlines,
      threadModel: { threadPool: this.#extensions.threadPool, dispatcher: this.#extensions.dispatcher },
      serializations: this.#extensions.serialization,
    });
    const wrapped = wrapProtocolWithFilters(raw, this.#extensions.filter);
    this.#raw.set(name, raw);
    this.#wrapped.set(name, wrapped);
    return wrapped;
  }

  /** A lookup for providers found in registries: undefined for protocols this application lacks. */
  find(name: string, setting: string): Protocol | undefined {
    return this.#extensions.protocol.has(name) ? this.get(name, setting) : undefined;
  }

  /** Whether this application exports `serviceKey` in-process (then references call it there). */
  exportsInProcess(serviceKey: string): boolean {
    const injvm = this.#raw.get(INJVM_PROTOCOL) as InjvmProtocol | undefined;
    return injvm?.registry.find(serviceKey) !== undefined;
  }

  destroyAll(): Array<Promise<void>> {
    const all = [...this.#wrapped.values()].map((p) => p.destroy());
    this.#wrapped.clear();
    this.#raw.clear();
    return all;
  }
}
