import type { DubboConfig } from "../config/index.js";
import {
  createInvocation,
  DUBBO_RELEASE,
  type Exporter,
  type Invoker,
  type Logger,
  type MethodDefinition,
  setLogLevel,
  type Url,
} from "../core/index.js";
import {
  CallMetrics,
  directoryMetrics,
  type MetricsLines,
  type MonitorEvents,
  prometheusText,
} from "../monitor/index.js";
import {
  type QosConfigEntry,
  type QosLookup,
  type QosMethodChoice,
  type QosMethodCount,
  type QosProvider,
  QosServer,
  type QosSite,
} from "../qos/index.js";
import type { RegistryExporter } from "../registry/protocol/index.js";
import { type ApplicationConsole, applicationConsole } from "./application-console.js";
import { directoryCounts } from "./directory-counts.js";

/** What the QoS port reads from its application. */
export interface QosParts {
  readonly settings: { readonly qosPort: number; readonly qosAcceptForeignIp: boolean };
  readonly config: DubboConfig;
  readonly monitor: MonitorEvents;
  /**
   * The registry and thread-pool collectors, whose families `/metrics` serves after the calls'
   * (the references' directory counts follow them).
   */
  readonly lifecycleMetrics: readonly MetricsLines[];
  readonly logger: Logger;
  exporters(): Iterable<Exporter>;
  references(): Iterable<Invoker>;
  /** The registries' URLs (the web console on the port reads the first ZooKeeper one). */
  registryUrls(): readonly Url[];
  isReady(): boolean;
}

function isRegistryExporter(e: Exporter): e is RegistryExporter {
  return "setOnline" in e;
}

/** Java's QoS service match: the simple or full interface name, the path, or the service key. */
function namesService(name: string, url: Url): boolean {
  const iface = url.serviceInterface;
  return (
    name === iface ||
    name === iface.slice(iface.lastIndexOf(".") + 1) ||
    name === url.path ||
    name === url.serviceKey
  );
}

/** The exported invoker a QoS name means, and the named method's definition when it has one. */
function findMethod(
  exporters: Iterable<Exporter>,
  service: string,
  method: string | undefined,
): QosLookup<{ invoker: Invoker; method: MethodDefinition | undefined }> {
  for (const exporter of exporters) {
    const invoker = exporter.invoker;
    if (!namesService(service, invoker.url)) continue;
    const key = invoker.url.serviceKey;
    const definition = method === undefined ? undefined : invoker.definition?.methods[method];
    if (method !== undefined && definition === undefined) {
      return { found: "no method", service: invoker.url.serviceInterface };
    }
    return { found: "service", service: key, value: { invoker, method: definition } };
  }
  return { found: "no service" };
}

/** The contract entries `invoke service.name(…)` with `argCount` arguments may mean (Java's name match). */
function findMethodsNamed(
  exporters: Iterable<Exporter>,
  service: string,
  name: string,
  argCount: number,
): QosLookup<QosMethodChoice[]> {
  const found = findMethod(exporters, service, undefined);
  if (found.found !== "service") return found;
  const methods = Object.entries(found.value.invoker.definition?.methods ?? {});
  const value = methods
    .filter(([key, m]) => ((m.javaName ?? key) === name || key === name) && m.args.length === argCount)
    .map(([key, m]) => ({ key, javaName: m.javaName ?? key, parameterTypes: m.args }));
  return { found: "service", service: found.service, value };
}

/** Settings that are code or bookkeeping, not configuration. */
const NOT_SHOWN = new Set(["definition", "ref", "given"]);

/** A config entry made JSON-ready: code and bookkeeping left out, passwords masked. */
function shown(settings: unknown): unknown {
  return JSON.parse(
    JSON.stringify(settings, (key, value: unknown) => {
      if (NOT_SHOWN.has(key) || typeof value === "function") return undefined;
      if (key === "password" && typeof value === "string") return "******";
      return typeof value === "bigint" ? value.toString() : value;
    }),
  );
}

/** The configuration as Java's `getConfig` lists it: one entry per config object, by Java type. */
function configEntries(config: DubboConfig): QosConfigEntry[] {
  const each = (type: string, entries: Readonly<Record<string, unknown>>) =>
    Object.entries(entries).map(([id, settings]) => ({ type, id, settings: shown(settings) }));
  return [
    { type: "ApplicationConfig", id: config.application.name, settings: shown(config.application) },
    ...each("ProtocolConfig", config.protocols),
    ...each("RegistryConfig", config.registries),
    { type: "ProviderConfig", id: "default", settings: shown(config.provider) },
    { type: "ConsumerConfig", id: "default", settings: shown(config.consumer) },
    ...each("ServiceConfig", config.services),
    ...each("ReferenceConfig", config.references),
  ];
}

function matches(pattern: string, url: { serviceKey: string; serviceInterface: string }): boolean {
  const re = new RegExp(`^(?:${pattern})$`);
  return re.test(url.serviceKey) || re.test(url.serviceInterface);
}

/**
 * The application's QoS port with its metrics: call counts start with it (nothing is counted
 * while nobody can scrape), and its commands see the application's exports and references.
 */
export class ApplicationQos {
  readonly #metrics: CallMetrics;
  readonly #server: QosServer;
  readonly #console: ApplicationConsole;
  readonly #logger: Logger;
  readonly #settings: QosParts["settings"];
  #port = 0;

  constructor(parts: QosParts) {
    this.#logger = parts.logger;
    this.#settings = parts.settings;
    this.#metrics = new CallMetrics(parts.monitor);
    const remote = () => [...parts.exporters()].filter(isRegistryExporter);
    const otherMetrics = [
      ...parts.lifecycleMetrics,
      directoryMetrics(parts.config.application.name, () => directoryCounts(parts.references())),
    ];
    const site: QosSite = {
      version: DUBBO_RELEASE,
      providers: (): QosProvider[] =>
        remote().map((e) => ({ serviceKey: e.url.serviceKey, registered: e.registeredUrls().length > 0 })),
      consumers: () => [...parts.references()].map((r) => r.url.serviceKey),
      servedUrls: () => [
        ...new Set(
          [...parts.exporters()].flatMap((e) =>
            e.url?.port ? [`${e.url.protocol}://${e.url.address}`] : [],
          ),
        ),
      ],
      setOnline: async (pattern, online) => {
        const chosen = remote().filter((e) => matches(pattern, e.url));
        await Promise.all(chosen.map((e) => e.setOnline(online)));
        return chosen.length > 0;
      },
      isReady: parts.isReady,
      configs: () => configEntries(parts.config),
      metricsText: () => prometheusText(this.#metrics, otherMetrics),
      methods: (service, name, argCount) => findMethodsNamed(parts.exporters(), service, name, argCount),
      setLogLevel: (level) => setLogLevel(parts.logger, level),
      invoke: async (service, method, args) => {
        const lookup = findMethod(parts.exporters(), service, method);
        if (lookup.found !== "service") return lookup;
        const { invoker, method: definition } = lookup.value;
        const url = invoker.url;
        const t0 = performance.now();
        const result = await invoker.invoke(
          createInvocation({
            service: url.serviceInterface,
            group: url.get("group"),
            version: url.get("version"),
            method: definition?.javaName ?? method,
            args,
            parameterTypes: definition?.args ?? [],
            ...(definition === undefined ? {} : { returnType: definition.returns }),
            remoteAddress: "qos",
          }),
        );
        return { ...lookup, value: { value: result.value, elapsedMs: performance.now() - t0 } };
      },
      count: (service, method) => {
        const lookup = findMethod(parts.exporters(), service, method);
        if (lookup.found !== "service") return lookup;
        const url = lookup.value.invoker.url;
        const names =
          method === undefined ? Object.keys(lookup.value.invoker.definition?.methods ?? {}) : [method];
        return { found: "service", service: lookup.service, value: names.map((m) => this.#count(url, m)) };
      },
    };
    this.#console = applicationConsole(parts.registryUrls, site.metricsText, parts.logger);
    this.#server = new QosServer(site, {
      port: parts.settings.qosPort,
      acceptForeignIp: parts.settings.qosAcceptForeignIp,
      logger: parts.logger,
      console: this.#console.handler,
    });
  }

  #count(url: Url, method: string): QosMethodCount {
    const seen = this.#metrics
      .methods()
      .find(
        (m) =>
          m.site.side === "provider" &&
          m.method === method &&
          m.site.service === url.serviceInterface &&
          m.site.group === (url.get("group") ?? "") &&
          m.site.version === (url.get("version") ?? ""),
      )?.stats;
    if (seen === undefined) return { method, total: 0, failed: 0, active: 0, averageMs: 0, maxMs: 0 };
    const averageMs = seen.rtCount === 0 ? 0 : seen.rtSum / seen.rtCount;
    return {
      method,
      total: seen.total,
      failed: seen.failed,
      active: seen.processing,
      averageMs,
      maxMs: seen.rtMax,
    };
  }

  /** The bound port (0 until listening). */
  get port(): number {
    return this.#port;
  }

  /** Listens; a port in use is logged and the application goes on without QoS, as Java does. */
  async start(): Promise<void> {
    try {
      this.#port = await this.#server.listen();
    } catch (error) {
      this.#metrics.close();
      this.#console.close();
      this.#logger.warn(
        `the QoS port ${this.#settings.qosPort} could not be opened; running without it (set application.qosPort, or qosEnable: false)`,
        error,
      );
    }
  }

  async stop(): Promise<void> {
    this.#metrics.close();
    this.#console.close();
    await this.#server.close();
  }
}
