import type { Url } from "../url/url.js";
import type { Invocation } from "./invocation.js";
import type { RpcResult } from "./result.js";
import type { ServiceDefinition } from "./service-definition.js";

/** Anything with a URL that can be asked whether it still works, and destroyed. */
export interface Node {
  readonly url: Url;
  isAvailable(): boolean;
  destroy(): Promise<void>;
}

/** The one call shape of every layer: a provider, a remote reference, a cluster, a filtered chain. */
export interface Invoker extends Node {
  invoke(inv: Invocation): Promise<RpcResult>;
  /**
   * The service contract, when the invoker was built from one (provider invokers, typed references).
   * Wrappers pass it through; the generic filter resolves `$invoke` against it.
   */
  readonly definition?: ServiceDefinition | undefined;
}

export interface Exporter {
  readonly invoker: Invoker;
  /** The URL as exported, when the protocol settles something (the bound port of `port: 0`, a token). */
  readonly url?: Url;
  unexport(): Promise<void>;
}

/** A way to export invokers and to refer to exported ones (`injvm`, `dubbo`, `registry`, …). */
export interface Protocol {
  readonly name: string;
  readonly defaultPort: number;
  export(invoker: Invoker): Promise<Exporter>;
  refer(url: Url): Promise<Invoker>;
  destroy(): Promise<void>;
}
