import {
  type ClusterContext,
  createBuiltinRouters,
  createClusterInvoker,
  createStaticDirectory,
} from "../cluster/index.js";
import {
  type DubboConfig,
  type DubboConfigOptions,
  loadConfig,
  type ReferenceConfig,
  type ResolvedReferenceConfig,
  type ResolvedServiceConfig,
  referenceExtensionNames,
  resolveReference,
  resolveService,
  type ServiceConfig,
  serviceExtensionNames,
  toReferenceUrl,
  toRegistryUrls,
  toServiceUrl,
} from "../config/index.js";
import {
  Code,
  currentRpcContext,
  type Exporter,
  type Invoker,
  type MethodsDefinition,
  type Protocol,
  RpcError,
  type ServiceDefinition,
  type ServiceImplementation,
  Url,
} from "../core/index.js";
import { wrapProtocolWithFilters } from "../filter/index.js";
import { INJVM_PROTOCOL, type InjvmProtocol, injvmServiceKey } from "../protocol/injvm/index.js";
import {
  type ConsumerStub,
  createGenericStub,
  createProviderInvoker,
  createStub,
  type GenericStub,
} from "../proxy/index.js";
import { mergeProviderUrl } from "../registry/directory/index.js";
import { Registries } from "../registry/index.js";
import { exportWithRegistry, referWithRegistry } from "../registry/protocol/index.js";
import { assertExtensionNames, assertNamesKnown } from "./extension-names.js";
import { type AppLogger, createExtensions, type Extensions, type ExtensionsOptions } from "./extensions.js";

export type { AppLogger } from "./extensions.js";

const consoleAppLogger: AppLogger = {
  warn: (message, error) => (error === undefined ? console.warn(message) : console.warn(message, error)),
  info: () => {},
};

export interface DubboOptions extends DubboConfigOptions, ExtensionsOptions {
  /** A `dubbo.yaml` to load; the options given here override it setting by setting. */
  readonly configFile?: string;
  /** Environment for `DUBBO_*` overrides; default `process.env`, `false` for none. */
  readonly env?: Readonly<Record<string, string | undefined>> | false;
  readonly logger?: AppLogger;
}

/** A service exported by the application. */
export interface ExportedService {
  /** The provider URL of each remote export (what registries see); empty for a local-only export. */
  readonly urls: readonly Url[];
  unexport(): Promise<void>;
}

type ServiceOptions = Omit<ServiceConfig, "definition" | "ref">;
type ReferenceOptions = Omit<ReferenceConfig, "definition">;

/**
 * One Dubbo application: it owns the extension points, the protocols, the exported services and the
 * references, and stops them in order. Create it with {@link createDubbo}.
 */
export class DubboApplication implements AsyncDisposable {
  readonly config: DubboConfig;
  readonly extensions: Extensions;
  readonly #logger: AppLogger;
  readonly #protocols = new Map<string, Protocol>();
  readonly #exporters = new Set<Exporter>();
  readonly #references = new Set<Invoker>();
  readonly #startedAt = Date.now();
  readonly #registries: Registries;
  #stopping: Promise<void> | undefined;

  constructor(config: DubboConfig, extensions: Extensions, logger: AppLogger) {
    this.config = config;
    this.extensions = extensions;
    this.#logger = logger;
    this.#registries = new Registries({ factories: extensions.registry, logger });
  }

  /**
   * Exports an implementation of a contract. By default it is callable in-process (`injvm`) and on
   * every configured protocol; `scope: "local"` keeps it in-process, `"none"` exports nothing.
   */
  async export<M extends MethodsDefinition>(
    definition: ServiceDefinition<M>,
    implementation: ServiceImplementation<M>,
    options: ServiceOptions = {},
  ): Promise<ExportedService> {
    this.#assertRunning();
    const service = resolveService(
      { ...options, definition, ref: implementation },
      { provider: this.config.provider, path: `services.${definition.interfaceName}` },
    );
    assertNamesKnown(serviceExtensionNames(service, `services.${service.id}`), this.extensions);
    return this.#exportResolved(service, definition, implementation);
  }

  /** A typed stub for a contract: `await (await app.refer(DemoService)).sayHello("x")`. */
  async refer<M extends MethodsDefinition>(
    definition: ServiceDefinition<M>,
    options: ReferenceOptions = {},
  ): Promise<ConsumerStub<M>> {
    const reference = this.#resolveReference({ ...options, definition });
    return createStub(definition, await this.#referResolved(reference));
  }

  /** A generic stub (`$invoke(method, types, args)`) for an interface you have no contract for. */
  async referGeneric(interfaceName: string, options: ReferenceOptions = {}): Promise<GenericStub> {
    const reference = this.#resolveReference({ ...options, interface: interfaceName, generic: true });
    return createGenericStub(await this.#referResolved(reference));
  }

  /** Exports every configured service that has an implementation (`ref`) and a contract. */
  async start(): Promise<void> {
    for (const service of Object.values(this.config.services)) {
      if (service.definition === undefined || service.ref === undefined) {
        throw new RpcError(
          `services.${service.id} (${service.interface}) needs a contract (definition) and an implementation (ref) to be exported`,
          Code.InvalidArgument,
        );
      }
      await this.#exportResolved(service, service.definition, service.ref);
    }
  }

  /** A typed stub for a reference declared in the configuration under `references.<id>`. */
  async reference<M extends MethodsDefinition>(id: string): Promise<ConsumerStub<M>> {
    const reference = this.config.references[id];
    if (reference === undefined) {
      const known = Object.keys(this.config.references).join(", ") || "none";
      throw new RpcError(`no reference "${id}" is configured (configured: ${known})`, Code.InvalidArgument);
    }
    if (reference.definition === undefined) {
      throw new RpcError(
        `references.${id} has no contract (definition); use referGeneric instead`,
        Code.InvalidArgument,
      );
    }
    return createStub(reference.definition as ServiceDefinition<M>, await this.#referResolved(reference));
  }

  /**
   * Stops in Dubbo's order: unexport services (so consumers stop calling and in-flight calls drain),
   * then destroy references, then protocols. Safe to call twice.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stopInOrder();
    return this.#stopping;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  async #stopInOrder(): Promise<void> {
    const failures: unknown[] = [];
    const settle = async (tasks: Array<Promise<void>>) => {
      for (const r of await Promise.allSettled(tasks)) if (r.status === "rejected") failures.push(r.reason);
    };
    await settle([...this.#exporters].map((e) => e.unexport()));
    await settle([...this.#references].map((r) => r.destroy()));
    await settle([this.#registries.destroyAll()]);
    await settle([...this.#protocols.values()].map((p) => p.destroy()));
    this.#exporters.clear();
    this.#references.clear();
    this.#protocols.clear();
    for (const failure of failures) this.#logger.warn("dubbo-ts: a part failed to stop cleanly", failure);
  }

  async #exportResolved(
    service: ResolvedServiceConfig,
    definition: ServiceDefinition,
    implementation: object,
  ): Promise<ExportedService> {
    const exporters: Exporter[] = [];
    const urls: Url[] = [];
    const scope = service.scope;
    if (scope === "none") return { urls, unexport: async () => {} };
    const protocolIds = service.protocols ?? Object.keys(this.config.protocols);
    const remoteUrls = protocolIds.map((id) =>
      toServiceUrl(service, this.config.protocols[id]!, this.config.application, {
        timestamp: this.#startedAt,
      }),
    );
    try {
      if (scope !== "remote") {
        const localUrl = remoteUrls[0]?.with({ protocol: INJVM_PROTOCOL, host: "127.0.0.1", port: 0 });
        const url =
          localUrl ??
          new Url({ protocol: INJVM_PROTOCOL, host: "127.0.0.1", port: 0, path: service.interface });
        exporters.push(await this.#export(INJVM_PROTOCOL, definition, implementation, url));
      }
      if (scope !== "local") {
        const registryUrls = this.#registryUrls(service.registries);
        for (const url of remoteUrls) {
          const exporter = await this.#export(url.protocol, definition, implementation, url, registryUrls);
          exporters.push(exporter);
          urls.push(exporter.url ?? exporter.invoker.url);
        }
      }
    } catch (error) {
      await Promise.allSettled(exporters.map((e) => e.unexport()));
      throw error;
    }
    for (const e of exporters) this.#exporters.add(e);
    return {
      urls,
      unexport: async () => {
        for (const e of exporters) this.#exporters.delete(e);
        await Promise.all(exporters.map((e) => e.unexport()));
      },
    };
  }

  /** Serves one invoker on one protocol, published in the given registries when there are any. */
  async #export(
    protocolName: string,
    definition: ServiceDefinition,
    implementation: object,
    url: Url,
    registryUrls: readonly Url[] = [],
  ): Promise<Exporter> {
    const protocol = this.#protocol(protocolName, `services.${definition.interfaceName}`);
    const invoker = createProviderInvoker(
      definition,
      implementation as ServiceImplementation<MethodsDefinition>,
      url,
    );
    if (registryUrls.length === 0) return protocol.export(invoker);
    return exportWithRegistry(invoker, {
      registryUrls,
      protocol,
      registries: this.#registries,
      logger: this.#logger,
    });
  }

  /** The URLs of the configured registries with these ids (all of them when `ids` is undefined). */
  #registryUrls(ids: readonly string[] | undefined): Url[] {
    const { registries, application } = this.config;
    return (ids ?? Object.keys(registries)).flatMap((id) =>
      toRegistryUrls(registries[id]!, application, { timestamp: this.#startedAt }),
    );
  }

  #resolveReference(options: ReferenceConfig): ResolvedReferenceConfig {
    this.#assertRunning();
    const id = options.definition?.interfaceName ?? options.interface ?? "reference";
    const reference = resolveReference(options, { consumer: this.config.consumer, path: `references.${id}` });
    assertNamesKnown(referenceExtensionNames(reference, `references.${id}`), this.extensions);
    return reference;
  }

  async #referResolved(reference: ResolvedReferenceConfig): Promise<Invoker> {
    this.#assertRunning();
    const consumerUrl = toReferenceUrl(reference, this.config.application, { timestamp: this.#startedAt });
    const invoker = await this.#referInvoker(reference, consumerUrl);
    this.#references.add(invoker);
    return invoker;
  }

  async #referInvoker(reference: ResolvedReferenceConfig, consumerUrl: Url): Promise<Invoker> {
    const injvm = this.#protocol(INJVM_PROTOCOL, `references.${reference.id}`) as Protocol;
    const exportedHere = this.#injvmProtocol()?.registry.find(injvmServiceKey(consumerUrl)) !== undefined;
    if (
      reference.scope === "local" ||
      (reference.scope === undefined && reference.urls.length === 0 && exportedHere)
    ) {
      return injvm.refer(consumerUrl.with({ protocol: INJVM_PROTOCOL }));
    }
    if (reference.urls.length > 0) {
      const providers = await Promise.all(
        reference.urls.map((address) => {
          const providerUrl = mergeConsumerSettings(address, consumerUrl);
          return this.#protocol(providerUrl.protocol, `references.${reference.id}.url`).refer(providerUrl);
        }),
      );
      const routers = createBuiltinRouters(this.extensions.router, consumerUrl);
      const directory = createStaticDirectory(consumerUrl, providers, routers);
      return createClusterInvoker(directory, this.#clusterContext(), this.extensions.cluster);
    }
    const registryUrls = this.#registryUrls(reference.registries);
    if (registryUrls.length > 0) return this.#referThroughRegistries(reference, consumerUrl, registryUrls);
    throw new RpcError(
      `reference ${consumerUrl.serviceKey} has no way to reach a provider: give it a url (e.g. dubbo://127.0.0.1:20880), export the service in this application, or configure a registry`,
      Code.FailedPrecondition,
    );
  }

  /**
   * Java's registry refer: register the consumer, subscribe providers, routers and configurators,
   * join the directories into one cluster invoker. With `check` (the default) a reference that
   * finds no provider within `addressWaitMs` fails here, naming the registries it asked.
   */
  async #referThroughRegistries(
    reference: ResolvedReferenceConfig,
    consumerUrl: Url,
    registryUrls: readonly Url[],
  ): Promise<Invoker> {
    const setting = `references.${reference.id}`;
    const invoker = await referWithRegistry(consumerUrl, {
      registryUrls,
      protocol: (name) => (this.extensions.protocol.has(name) ? this.#protocol(name, setting) : undefined),
      registries: this.#registries,
      cluster: (directory) =>
        createClusterInvoker(directory, this.#clusterContext(), this.extensions.cluster),
      routerFactories: this.extensions.router,
      logger: this.#logger,
    });
    if (reference.check && !(await invoker.waitForProviders(reference.addressWaitMs))) {
      await invoker.destroy();
      throw new RpcError(
        `no provider of ${consumerUrl.serviceKey} is registered in ${registryUrls.map((u) => u.address).join(", ")} ` +
          `(check the provider's interface, group and version, or set check: false to start without one)`,
        Code.Unavailable,
      );
    }
    return invoker;
  }

  #clusterContext(): ClusterContext {
    const { loadBalance, rpcStatus } = this.extensions;
    const logger = this.#logger;
    return {
      loadBalance: (name) => loadBalance.get(name),
      warn: (message, error) => logger.warn(message, error),
      random: Math.random,
      rpcStatus,
      contextAttachments: () => currentRpcContext()?.attachments,
    };
  }

  #injvmProtocol(): InjvmProtocol | undefined {
    return this.#rawProtocols.get(INJVM_PROTOCOL) as InjvmProtocol | undefined;
  }

  readonly #rawProtocols = new Map<string, Protocol>();

  /** The application's one instance of a protocol, with the filter chains around it. */
  #protocol(name: string, setting: string): Protocol {
    const existing = this.#protocols.get(name);
    if (existing !== undefined) return existing;
    if (!this.extensions.protocol.has(name)) {
      const registered = this.extensions.protocol.names().join(", ");
      throw new RpcError(
        `${setting} needs protocol "${name}", which this application does not have (registered: ${registered})` +
          (name === "dubbo"
            ? '; the dubbo protocol is not registered, so use scope: "local" for in-process calls'
            : ""),
        Code.FailedPrecondition,
      );
    }
    const raw = this.extensions.protocol.get(name)({
      rpcStatus: this.extensions.rpcStatus,
      logger: this.#logger,
    });
    const wrapped = wrapProtocolWithFilters(raw, this.extensions.filter);
    this.#rawProtocols.set(name, raw);
    this.#protocols.set(name, wrapped);
    return wrapped;
  }

  #assertRunning(): void {
    if (this.#stopping !== undefined) {
      throw new RpcError("this application is stopped; create a new one", Code.FailedPrecondition);
    }
  }
}

/**
 * A direct provider address takes the consumer's settings (timeout, retries, …) as Java's
 * point-to-point reference does (`ClusterUtils.mergeUrl`): the address decides protocol, host,
 * port and path (the interface when it names none), and the consumer's own start time never
 * becomes the provider's warmup `timestamp`.
 */
function mergeConsumerSettings(address: Url, consumerUrl: Url): Url {
  const provider = address.path === "" ? address.with({ path: consumerUrl.path }) : address;
  return mergeProviderUrl(provider, consumerUrl);
}

/** Creates an application from options, an optional `dubbo.yaml`, and `DUBBO_*` environment variables. */
export async function createDubbo(options: DubboOptions = {}): Promise<DubboApplication> {
  const { configFile, env, logger, random, ...overrides } = options;
  const config = await loadConfig({
    ...(configFile === undefined ? {} : { file: configFile }),
    ...(env === false ? {} : { env: env ?? process.env }),
    overrides,
  });
  const extensions = createExtensions(random === undefined ? {} : { random });
  assertExtensionNames(config, extensions);
  return new DubboApplication(config, extensions, logger ?? consoleAppLogger);
}
