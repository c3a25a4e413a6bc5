import {
  Code,
  consoleLogger,
  DEFAULT_DUBBO_REGISTRY_PORT,
  DEFAULT_EMBEDDED_REGISTRY_LEASE_MS,
  demoteInfo,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  resultOf,
  Url,
} from "../../core/index.js";
import { createDubboProtocol, type DubboExporter, type DubboProtocol } from "../../protocol/dubbo/index.js";
import { REGISTRY_LOG, type RegistryLogger } from "../registry.js";
import { EMBEDDED_REGISTRY_SERVICE, RegistryServiceContract } from "./registry-contract.js";
import { RegistryStore, type RegistryStoreOptions } from "./registry-store.js";

export interface EmbeddedRegistryOptions extends Omit<RegistryStoreOptions, "now"> {
  /** Address to listen on and to advertise. Default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 9090 (Java's dubbo registry port). */
  // recoveryMs defaults to the default client lease here: a restarted server waits that long for
  // its clients to register again before it tells a poll that a service has no providers.
  readonly port?: number;
  readonly logger?: RegistryLogger;
}

/** A running embedded registry. */
export interface EmbeddedRegistryServer {
  /** `dubbo://host:port`: what clients put in their registry address. */
  readonly url: Url;
  readonly host: string;
  readonly port: number;
  /** The registrations, for diagnostics and tests. */
  readonly store: RegistryStore;
  /** Answers pending watches, then closes the server and its connections. */
  stop(): Promise<void>;
}

function text(value: unknown, what: string, method: string): string {
  if (typeof value !== "string" || value === "") {
    throw new RpcError(
      `${EMBEDDED_REGISTRY_SERVICE}.${method}: ${what} must be a non-empty string`,
      Code.InvalidArgument,
    );
  }
  return value;
}

function int(value: unknown): number {
  return typeof value === "bigint" ? Number(value) : typeof value === "number" ? value : 0;
}

/** The provider side of the registry service, over a store. */
function createRegistryInvoker(url: Url, store: RegistryStore): Invoker {
  let destroyed = false;
  const handle = async (inv: Invocation): Promise<unknown> => {
    const [a, b, c, d] = inv.args;
    switch (inv.method) {
      case "register":
        store.register(text(a, "clientId", inv.method), text(b, "url", inv.method), int(c));
        return null;
      case "unregister":
        store.unregister(text(a, "clientId", inv.method), text(b, "url", inv.method));
        return null;
      case "renew":
        return store.renew(text(a, "clientId", inv.method), int(b));
      case "lookup":
        return store.lookup(text(a, "subscription", inv.method)).map((u) => u.toFullString());
      case "watch":
        return store.watch(
          text(a, "clientId", inv.method),
          text(b, "subscription", inv.method),
          int(c),
          int(d),
        );
      default:
        throw new RpcError(
          `${EMBEDDED_REGISTRY_SERVICE} has no method "${inv.method}" (register, unregister, renew, lookup, watch)`,
          Code.Unimplemented,
        );
    }
  };
  return {
    url,
    definition: RegistryServiceContract,
    async invoke(inv: Invocation): Promise<RpcResult> {
      try {
        return resultOf(await handle(inv));
      } catch (error) {
        if (error instanceof RpcError) throw error;
        throw new RpcError(
          `${EMBEDDED_REGISTRY_SERVICE}.${inv.method} rejected its arguments: ${(error as Error).message}`,
          Code.InvalidArgument,
          { cause: error },
        );
      }
    },
    isAvailable: () => !destroyed,
    async destroy() {
      destroyed = true;
    },
  };
}

/**
 * Starts the embedded registry in this process: the registry service exported over the dubbo
 * protocol (`dispatcher=direct`: long-polls wait on timers, not on pool slots). Clients use the
 * registry address `dubbo://host:port`.
 */
export async function startEmbeddedRegistry(
  options: EmbeddedRegistryOptions = {},
): Promise<EmbeddedRegistryServer> {
  const host = options.host ?? "127.0.0.1";
  const logger = options.logger ?? consoleLogger;
  const store = new RegistryStore({
    ...options,
    recoveryMs: options.recoveryMs ?? DEFAULT_EMBEDDED_REGISTRY_LEASE_MS,
  });
  const protocol: DubboProtocol = createDubboProtocol({
    logger: demoteInfo(logger, REGISTRY_LOG),
    shutdownWaitMs: 1000,
  });
  const exportUrl = new Url({
    protocol: "dubbo",
    host,
    port: options.port ?? DEFAULT_DUBBO_REGISTRY_PORT,
    path: EMBEDDED_REGISTRY_SERVICE,
    params: {
      interface: EMBEDDED_REGISTRY_SERVICE,
      side: "provider",
      dispatcher: "direct",
      methods: "register,unregister,renew,lookup,watch",
    },
  });
  let exporter: DubboExporter;
  try {
    exporter = await protocol.export(createRegistryInvoker(exportUrl, store));
  } catch (error) {
    store.close();
    await protocol.destroy();
    throw error;
  }
  const url = new Url({ protocol: "dubbo", host, port: exporter.url.port, path: "" });
  let stopped: Promise<void> | undefined;
  return {
    url,
    host,
    port: exporter.url.port,
    store,
    stop() {
      stopped ??= (async () => {
        store.close();
        await protocol.destroy();
      })();
      return stopped;
    },
  };
}
