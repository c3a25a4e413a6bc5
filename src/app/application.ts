import type { DescService } from "@bufbuild/protobuf";
import {
  type ClusterContext,
  defaultMockName,
  type MockImplementation,
  MockImplementations,
  parseMockSetting,
} from "../cluster/index.js";
import {
  type ConfigLayers,
  type DubboConfig,
  type DubboConfigOptions,
  type LoadedConfig,
  loadConfigLayers,
  type ReferenceConfig,
  type ResolvedReferenceConfig,
  type ResolvedServiceConfig,
  referenceExtensionNames,
  resolveReferenceEntry,
  resolveServiceEntry,
  type ServiceConfig,
  serviceExtensionNames,
  toReferenceUrl,
  toRegistryUrls,
} from "../config/index.js";
import {
  Code,
  createLogger,
  currentRpcContext,
  type Exporter,
  type Invoker,
  isLogger,
  type Logger,
  type LogLevel,
  type LogSink,
  type MethodsDefinition,
  parseLogLevel,
  RpcError,
  type ServiceDefinition,
  type ServiceImplementation,
  TRACE_ENV,
  type Url,
} from "../core/index.js";
import { withClusterFilters } from "../filter/index.js";
import { RegistryMetrics, ThreadPoolMetrics } from "../monitor/index.js";
import type { ProtoClient, ProtoImplementation, ProtoService } from "../protocol/triple/index.js";
import {
  type ConsumerStub,
  createGenericStub,
  createIdlStub,
  createStub,
  type GenericStub,
} from "../proxy/index.js";
import { ApplicationDiscovery, Registries } from "../registry/index.js";
import type { ApplicationQos } from "./application-qos.js";
import { assertExtensionNames, assertNamesKnown, assertPluginSettings } from "./extension-names.js";
import { type AppLogger, createExtensions, type Extensions, type Plugin } from "./extensions.js";
import { ProtocolSet } from "./protocol-set.js";
import { type ReferenceSite, referInvoker } from "./reference-invoker.js";
import { type ExportSite, exportService } from "./service-export.js";
import { stopOnSignals } from "./shutdown-hook.js";

export type { AppLogger } from "./extensions.js";

export interface DubboOptions extends DubboConfigOptions {
  /**
   * Plugins (third-party extensions, written against `dubbo-ts/extension`), registered after the
   * built-in ones and before the configuration is checked, so the configuration may name theirs.
   */
  readonly plugins?: readonly Plugin[];
  /** Randomness for the balancers and the clusters; seed it in tests. */
  readonly random?: () => number;
  /** A `dubbo.yaml` to load; the options given here override it setting by setting, `DUBBO_*` variables override both. */
  readonly configFile?: string;
  /** Environment for `DUBBO_*` overrides; default `process.env`, `false` for none. */
  readonly env?: Readonly<Record<string, string | undefined>> | false;
  /**
   * Where the application logs: a pino logger (or any object with pino's `error`/`warn`/`info`/
   * `debug`/`trace(fields, message)` methods), or a Logger made by `createLogger`, which keeps its
   * own level and categories. Default: one line per record on stderr.
   */
  readonly logger?: LogSink | Logger;
  /**
   * The lowest level logged (for a sink): `error`, `warn`, `info` (default), `debug`, `trace` or
   * `silent`. The environment's `DUBBO_TRACE=registry,cluster` (or `all`) switches on the debug
   * and trace records of those categories (then the default level is `trace`).
   */
  readonly logLevel?: LogLevel;
  /**
   * Stop gracefully on SIGTERM and SIGINT, as Java's shutdown hook does (default true): the same
   * setting as `application.shutdownHook` (dubbo.yaml, `DUBBO_APPLICATION_SHUTDOWN_HOOK`), given in
   * code. See the README's "Running as a service" for several applications and your own handlers.
   */
  readonly shutdownHook?: boolean;
}

/** A service exported by the application. */
export interface ExportedService {
  /** The provider URL of each remote export (what registries see); empty for a local-only export. */
  readonly urls: readonly Url[];
  unexport(): Promise<void>;
}

/**
 * A service's settings in code. They apply over the configuration's entry for it (`services.<id>`,
 * else the entry whose id or `interface` is the contract's interface) and under the environment's.
 */
type ServiceOptions = Omit<ServiceConfig, "definition" | "ref"> & {
  /** The `services` entry (dubbo.yaml, `DUBBO_SERVICES_<ID>_*`) to take settings from. */
  readonly id?: string;
};

/**
 * Options of `app.refer` / `app.referGeneric`: the reference's settings in code (layered as
 * {@link ServiceOptions} are, from `references.<id>`) plus its own mock.
 */
export type ReferenceOptions<I = MockImplementation> = Omit<ReferenceConfig, "definition"> & {
  /** The `references` entry (dubbo.yaml, `DUBBO_REFERENCES_<ID>_*`) to take settings from. */
  readonly id?: string;
  /**
   * This reference's own mock implementation: what `mock: "true"` / `"default"` (or an
   * `override://` rule's `mock=force:true`) calls instead of the providers (`force:`) or after an
   * RPC failure, never after a business error. It wins over one registered with `app.registerMock`.
   */
  readonly mockImplementation?: I;
};

/** Options of `app.registerMock`. */
export interface RegisterMockOptions {
  /**
   * The name `mock=<name>` refers to. Default: the interface's own mock (`<Interface>Mock`,
   * what `mock=true|default` calls).
   */
  readonly name?: string;
}

/**
 * One Dubbo application: it owns the extension points, the protocols, the exported services and the
 * references, and stops them in order. Create it with {@link createDubbo}.
 */
export class DubboApplication implements AsyncDisposable, ExportSite, ReferenceSite {
  readonly config: DubboConfig;
  readonly extensions: Extensions;
  /** @internal The parts below are the application's wiring, shared with its export and refer helpers. */
  readonly logger: AppLogger;
  /** @internal */
  readonly protocols: ProtocolSet;
  /** @internal */
  readonly registries: Registries;
  /** @internal Dubbo 3 application-level discovery: the instance, metadata service and mapping. */
  readonly discovery: ApplicationDiscovery;
  /** @internal */
  readonly clusterContext: ClusterContext;
  /** @internal Stamped as every URL's `timestamp`: stable for the application's life (Java's warmup). */
  readonly startedAt = Date.now();
  readonly #stopController = new AbortController();
  /** @internal Aborted when `stop()` begins (delayed exports give up). */
  readonly stopSignal: AbortSignal = this.#stopController.signal;
  readonly #layers: ConfigLayers;
  readonly #exporters = new Set<Exporter>();
  readonly #references = new Set<Invoker>();
  readonly #mocks = new MockImplementations();
  readonly #leaveShutdownHook: (() => void) | undefined;
  #stopping: Promise<void> | undefined;
  #started = false;
  #qos: ApplicationQos | undefined;
  /**
   * The registry and thread-pool metrics of the QoS port's `/metrics`: they count from the start
   * (their events are rare, none per call), so the registers and pools made before the port opens
   * are in them.
   */
  readonly #lifecycleMetrics: ReadonlyArray<RegistryMetrics | ThreadPoolMetrics>;

  constructor(
    loaded: LoadedConfig,
    extensions: Extensions,
    logger: AppLogger,
    options: {
      readonly random?: (() => number) | undefined;
    } = {},
  ) {
    const random = options.random ?? Math.random;
    this.config = loaded.config;
    this.#layers = loaded.layers;
    this.extensions = extensions;
    this.logger = logger;
    this.#leaveShutdownHook = loaded.config.application.shutdownHook
      ? stopOnSignals({ name: loaded.config.application.name, logger, stop: () => this.stop() })
      : undefined;
    const { name, qosEnable } = loaded.config.application;
    this.#lifecycleMetrics = qosEnable
      ? [new RegistryMetrics(extensions.monitor, name), new ThreadPoolMetrics(extensions.monitor, name)]
      : [];
    this.protocols = new ProtocolSet(extensions, logger);
    this.registries = new Registries({ factories: extensions.registry, logger, monitor: extensions.monitor });
    this.discovery = new ApplicationDiscovery(logger);
    this.clusterContext = {
      loadBalance: (name) => extensions.loadBalance.get(name),
      warn: (message, error) => logger.warn(message, error),
      random,
      rpcStatus: extensions.rpcStatus,
      contextAttachments: () => currentRpcContext()?.attachments,
      mockImplementation: (serviceInterface, name) => this.#mocks.find(serviceInterface, name),
    };
  }

  /**
   * Registers a mock implementation of a contract for every reference of this application: the
   * interface's own mock (Java's `<Interface>Mock`, what `mock: "true"` calls) or, with `name`,
   * the one `mock: "<name>"` calls. A mock answers instead of the providers with `force:`, else
   * only after an RPC failure (never after a business error). An IDL service's mock is an
   * implementation of it, called as its handlers are.
   */
  registerMock<M extends MethodsDefinition>(
    definition: ServiceDefinition<M>,
    implementation: ServiceImplementation<M>,
    options?: RegisterMockOptions,
  ): void;
  registerMock<S extends DescService>(
    service: ProtoService<S>,
    implementation: ProtoImplementation<S>,
    options?: RegisterMockOptions,
  ): void;
  registerMock(
    contract: ServiceDefinition | ProtoService,
    implementation: object,
    options: RegisterMockOptions = {},
  ): void {
    this.#assertRunning();
    const definition = contractOf(contract);
    this.#mocks.register(definition.interfaceName, implementation as MockImplementation, {
      ...(options.name === undefined ? {} : { name: options.name }),
      methods: methodNamesOf(definition),
    });
  }

  /**
   * Exports an implementation of a contract. By default it is callable in-process (`injvm`) and on
   * every configured protocol; `scope: "local"` keeps it in-process, `"none"` exports nothing.
   * An IDL service (`defineProtoService(Greeter)`, served on a `tri` protocol) takes a handler per
   * rpc and is registered under its `package.Service` name, as Java registers an IDL service.
   */
  async export<M extends MethodsDefinition>(
    definition: ServiceDefinition<M>,
    implementation: ServiceImplementation<M>,
    options?: ServiceOptions,
  ): Promise<ExportedService>;
  async export<S extends DescService>(
    service: ProtoService<S>,
    implementation: ProtoImplementation<S>,
    options?: ServiceOptions,
  ): Promise<ExportedService>;
  async export(
    contract: ServiceDefinition | ProtoService,
    implementation: object,
    options: ServiceOptions = {},
  ): Promise<ExportedService> {
    this.#assertRunning();
    const definition = contractOf(contract);
    const { id, ...settings } = options;
    const service = resolveServiceEntry(
      this.#layers,
      this.config,
      { interfaceName: definition.interfaceName, ...(id === undefined ? {} : { id }) },
      { ...settings, definition, ref: implementation },
    );
    assertNamesKnown(serviceExtensionNames(service, `services.${service.id}`), this.extensions);
    return this.#exportResolved(service, definition, implementation);
  }

  /**
   * A typed stub for a contract: `await (await app.refer(DemoService)).sayHello("x")`. For an IDL
   * service (`defineProtoService(Greeter)`), a client whose unary rpcs return promises and whose
   * streams are async iterables, its calls through the same cluster, filters and registries.
   */
  async refer<M extends MethodsDefinition>(
    definition: ServiceDefinition<M>,
    options?: ReferenceOptions<ServiceImplementation<M>>,
  ): Promise<ConsumerStub<M>>;
  async refer<S extends DescService>(
    service: ProtoService<S>,
    options?: ReferenceOptions<ProtoImplementation<S>>,
  ): Promise<ProtoClient<S>>;
  async refer(
    contract: ServiceDefinition | ProtoService,
    options: ReferenceOptions<object> = {},
  ): Promise<unknown> {
    const { mockImplementation, ...settings } = options;
    const definition = contractOf(contract);
    const reference = this.#resolveReference({ ...settings, definition });
    const invoker = await this.#referResolved(
      reference,
      mockImplementation as MockImplementation | undefined,
    );
    return definition.idl === undefined
      ? createStub(definition, invoker)
      : createIdlStub(definition, invoker);
  }

  /** A generic stub (`$invoke(method, types, args)`) for an interface you have no contract for. */
  async referGeneric(interfaceName: string, options: ReferenceOptions = {}): Promise<GenericStub> {
    const { mockImplementation, ...settings } = options;
    const reference = this.#resolveReference({ ...settings, interface: interfaceName, generic: true });
    return createGenericStub(await this.#referResolved(reference, mockImplementation));
  }

  /**
   * Exports every configured service that has an implementation (`ref`). Entries with neither a
   * contract nor an implementation (a dubbo.yaml's) are settings for `export` to pick up.
   */
  async start(): Promise<void> {
    for (const service of Object.values(this.config.services)) {
      if (service.definition === undefined && service.ref === undefined) continue;
      if (service.definition === undefined || service.ref === undefined) {
        throw new RpcError(
          `services.${service.id} (${service.interface}) needs a contract (definition) and an implementation (ref) to be exported`,
          Code.InvalidArgument,
        );
      }
      await this.#exportResolved(service, service.definition, service.ref);
    }
    this.#started = true;
    await this.#startQos();
  }

  /** The QoS port bound once `start()` is done; 0 when QoS is off or could not listen. */
  get qosPort(): number {
    return this.#qos?.port ?? 0;
  }

  async #startQos(): Promise<void> {
    if (!this.config.application.qosEnable || this.#qos !== undefined) return;
    // The QoS server, its commands and the web console load here: an application that never
    // calls start() (it exports and refers in code) or turns QoS off never loads them.
    const { ApplicationQos } = await import("./application-qos.js");
    if (this.#qos !== undefined || this.#stopping !== undefined) return;
    this.#qos = new ApplicationQos({
      settings: this.config.application,
      config: this.config,
      monitor: this.extensions.monitor,
      lifecycleMetrics: this.#lifecycleMetrics,
      logger: this.logger,
      exporters: () => this.#exporters,
      references: () => this.#references,
      registryUrls: () => this.registryUrls(undefined),
      isReady: () => this.#started && this.#stopping === undefined,
    });
    await this.#qos.start();
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

  /** The URLs of the configured registries with these ids (all of them when `ids` is undefined). */
  registryUrls(ids: readonly string[] | undefined): Url[] {
    const { registries, application } = this.config;
    return (ids ?? Object.keys(registries)).flatMap((id) =>
      toRegistryUrls(registries[id]!, application, { timestamp: this.startedAt }),
    );
  }

  /**
   * Stops in Dubbo's order: unexport services (unregister, READONLY, drain in-flight calls), then
   * destroy references, registries and protocols, then close the filters (the access log file gets
   * its last lines). Safe to call twice; SIGTERM and SIGINT call it unless `application.shutdownHook` is false.
   */
  stop(): Promise<void> {
    this.#stopController.abort();
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
    await settle([this.discovery.destroy()]);
    await settle([this.registries.destroyAll()]);
    await settle(this.protocols.destroyAll());
    await settle([...this.extensions.filter.entries()].flatMap(([, f]) => (f.close ? [f.close()] : [])));
    await settle(this.#qos === undefined ? [] : [this.#qos.stop()]);
    for (const metrics of this.#lifecycleMetrics) metrics.close();
    this.#exporters.clear();
    this.#references.clear();
    this.#leaveShutdownHook?.();
    for (const failure of failures)
      this.logger.warn("a part of the application failed to stop cleanly", failure);
  }

  async #exportResolved(
    service: ResolvedServiceConfig,
    definition: ServiceDefinition,
    implementation: object,
  ): Promise<ExportedService> {
    // An IDL service's message codecs need the protobuf runtime, which loads on first use.
    await definition.idl?.ready();
    const { exporters, urls } = await exportService(this, service, definition, implementation);
    for (const e of exporters) this.#exporters.add(e);
    const where =
      urls.length === 0
        ? "in-process only"
        : `at ${urls.map((u) => `${u.protocol}://${u.address}`).join(", ")}`;
    this.logger.info(`exported ${service.interface} ${where}`);
    return {
      urls,
      unexport: async () => {
        for (const e of exporters) this.#exporters.delete(e);
        await Promise.all(exporters.map((e) => e.unexport()));
      },
    };
  }

  #resolveReference(options: ReferenceOptions & ReferenceConfig): ResolvedReferenceConfig {
    this.#assertRunning();
    const { id, ...settings } = options;
    const interfaceName = options.definition?.interfaceName ?? options.interface ?? "reference";
    const reference = resolveReferenceEntry(
      this.#layers,
      this.config,
      { interfaceName, ...(id === undefined ? {} : { id }) },
      settings,
    );
    assertNamesKnown(referenceExtensionNames(reference, `references.${reference.id}`), this.extensions);
    return reference;
  }

  async #referResolved(reference: ResolvedReferenceConfig, ownMock?: MockImplementation): Promise<Invoker> {
    this.#assertRunning();
    await reference.definition?.idl?.ready();
    const consumerUrl = toReferenceUrl(reference, this.config.application, { timestamp: this.startedAt });
    const context = ownMock === undefined ? this.clusterContext : this.#withOwnMock(reference, ownMock);
    assertMockImplementation(consumerUrl, context, `references.${reference.id}`);
    const invoker = await referInvoker(this, reference, consumerUrl, context);
    this.#references.add(invoker);
    this.logger.debug(APP_LOG, `referred ${consumerUrl.toString()}`);
    // The stub calls through the filters that run once per logical call (tracing's client span).
    return withClusterFilters(this.extensions.filter, invoker);
  }

  /** The cluster context of a reference with its own mock: it answers the default name. */
  #withOwnMock(reference: ResolvedReferenceConfig, ownMock: MockImplementation): ClusterContext {
    const own = new MockImplementations();
    own.register(reference.interface, ownMock, {
      ...(reference.definition === undefined ? {} : { methods: methodNamesOf(reference.definition) }),
    });
    return {
      ...this.clusterContext,
      mockImplementation: (serviceInterface, name) =>
        own.find(serviceInterface, name) ?? this.#mocks.find(serviceInterface, name),
    };
  }

  #assertRunning(): void {
    if (this.#stopping !== undefined) {
      throw new RpcError("this application is stopped; create a new one", Code.FailedPrecondition);
    }
  }
}

/** The contract of a `defineService` definition, or of an IDL service. */
function contractOf(contract: ServiceDefinition | ProtoService): ServiceDefinition {
  return "descriptor" in contract ? contract.definition : contract;
}

/** The method names an implementation (or a mock) of `definition` has: an IDL service's generated ones. */
function methodNamesOf(definition: ServiceDefinition): string[] {
  return definition.idl === undefined
    ? Object.keys(definition.methods)
    : [...definition.idl.methods.values()].map((method) => method.localName);
}

/**
 * Java's refer-time `checkMock`: a reference whose own `mock` names an implementation fails at
 * refer when none is registered, instead of on its first failed call.
 */
function assertMockImplementation(consumerUrl: Url, context: ClusterContext, path: string): void {
  const raw = consumerUrl.get("mock");
  const action = parseMockSetting(raw)?.action;
  if (action?.kind !== "implementation") return;
  const iface = consumerUrl.serviceInterface;
  if (context.mockImplementation?.(iface, action.name) !== undefined) return;
  const named = action.name === "default" ? defaultMockName(iface) : action.name;
  const how =
    action.name === "default"
      ? "app.registerMock(contract, implementation) or the refer option mockImplementation"
      : `app.registerMock(contract, implementation, { name: "${action.name}" })`;
  throw new RpcError(
    `${path}.mock = ${raw}: no mock implementation "${named}" of ${iface} is registered; register it first with ${how}, or use mock "return ..." / "throw ..."`,
    Code.InvalidArgument,
  );
}

/**
 * Creates an application from an optional `dubbo.yaml`, options in code and `DUBBO_*`
 * environment variables, in Java's order of precedence: the environment over code over the file.
 * Settings the application ignores (Java-only keys, variables that set nothing) are logged once
 * as warnings.
 */
export async function createDubbo(options: DubboOptions = {}): Promise<DubboApplication> {
  const { configFile, env, logger, logLevel, plugins, random, shutdownHook, ...settings } = options;
  const overrides =
    shutdownHook === undefined
      ? settings
      : { ...settings, application: { ...settings.application, shutdownHook } };
  const environment = env === false ? undefined : (env ?? process.env);
  const appLogger = applicationLogger(logger, logLevel, environment);
  const loaded = await loadConfigLayers({
    ...(configFile === undefined ? {} : { file: configFile }),
    ...(environment === undefined ? {} : { env: environment }),
    overrides,
    warn: (message) => appLogger.warn(message),
  });
  const extensions = createExtensions({ logger: appLogger, ...(plugins === undefined ? {} : { plugins }) });
  assertExtensionNames(loaded.config, extensions);
  assertPluginSettings(loaded.config, extensions);
  return new DubboApplication(loaded, extensions, appLogger, { random });
}

/** The category of the application's own debug records (`DUBBO_TRACE=app`). */
const APP_LOG = "app";

function applicationLogger(
  given: LogSink | Logger | undefined,
  level: LogLevel | undefined,
  env: Readonly<Record<string, string | undefined>> | undefined,
): Logger {
  if (given !== undefined && isLogger(given)) return given;
  return createLogger({
    sink: given,
    level: level === undefined ? undefined : parseLogLevel(level, "logLevel"),
    categories: env?.[TRACE_ENV],
  });
}
