import {
  Code,
  DeadlineTimers,
  type Exporter,
  type Invoker,
  type Protocol,
  RpcError,
  type Url,
} from "../../core/index.js";
import { InjvmInvoker } from "./injvm-invoker.js";
import { createInjvmRegistry, type InjvmRegistry, injvmServiceKey } from "./injvm-registry.js";

/** The in-process protocol's name, as in Java (`injvm://127.0.0.1/...`, `scope=local`). */
export const INJVM_PROTOCOL = "injvm";

export interface InjvmProtocolOptions {
  /** The application's in-process service table; a new one when absent. */
  readonly registry?: InjvmRegistry;
  /** The application's deadline timers, shared by all its protocols (default: the protocol's own). */
  readonly deadlines?: DeadlineTimers;
}

export interface InjvmProtocol extends Protocol {
  readonly registry: InjvmRegistry;
  /** The invokers `refer` made that are not destroyed yet, for diagnostics. */
  readonly invokerCount: number;
}

/**
 * Calls within one application (Java's InjvmProtocol): `export` registers an invoker under its
 * service key (`group/interface:version`), `refer` returns an invoker that calls the exported one
 * directly. Nothing is shared between applications: the table is the `registry` passed in.
 */
export function createInjvmProtocol(options: InjvmProtocolOptions = {}): InjvmProtocol {
  const registry = options.registry ?? createInjvmRegistry();
  const exporters = new Set<Exporter>();
  const references = new Set<Invoker>();
  /** The timeouts of every in-process call, on one timer per distinct timeout. */
  const deadlines = options.deadlines ?? new DeadlineTimers({ keepAlive: true });
  let destroyed = false;

  const assertAlive = (what: string, url: Url): void => {
    if (destroyed) {
      throw new RpcError(
        `cannot ${what} ${url.serviceKey}: the injvm protocol was destroyed`,
        Code.FailedPrecondition,
      );
    }
  };

  return {
    name: INJVM_PROTOCOL,
    defaultPort: 0,
    registry,
    get invokerCount() {
      return references.size;
    },
    async export(invoker: Invoker): Promise<Exporter> {
      assertAlive("export", invoker.url);
      const key = injvmServiceKey(invoker.url);
      let unexported = false;
      const exporter: Exporter = {
        invoker,
        async unexport() {
          if (unexported) return;
          unexported = true;
          registry.remove(key, exporter);
          exporters.delete(exporter);
          await invoker.destroy();
        },
      };
      registry.add(key, exporter);
      exporters.add(exporter);
      return exporter;
    },
    async refer(url: Url): Promise<Invoker> {
      assertAlive("refer to", url);
      const invoker = new InjvmInvoker(url, injvmServiceKey(url), registry, deadlines, (i) =>
        references.delete(i),
      );
      references.add(invoker);
      return invoker;
    },
    async destroy(): Promise<void> {
      if (destroyed) return;
      destroyed = true;
      await Promise.all([...references].map((r) => r.destroy()));
      await Promise.all([...exporters].map((e) => e.unexport()));
    },
  };
}
