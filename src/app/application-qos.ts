import { DUBBO_RELEASE, type Exporter, type Invoker, type Logger } from "../core/index.js";
import { CallMetrics, type MonitorEvents, prometheusText } from "../monitor/index.js";
import { type QosProvider, QosServer, type QosSite } from "../qos/index.js";
import type { RegistryExporter } from "../registry/protocol/index.js";

/** What the QoS port reads from its application. */
export interface QosParts {
  readonly settings: { readonly qosPort: number; readonly qosAcceptForeignIp: boolean };
  readonly monitor: MonitorEvents;
  readonly logger: Logger;
  exporters(): Iterable<Exporter>;
  references(): Iterable<Invoker>;
  isReady(): boolean;
}

function isRegistryExporter(e: Exporter): e is RegistryExporter {
  return "setOnline" in e;
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
  readonly #logger: Logger;
  readonly #settings: QosParts["settings"];
  #port = 0;

  constructor(parts: QosParts) {
    this.#logger = parts.logger;
    this.#settings = parts.settings;
    this.#metrics = new CallMetrics(parts.monitor);
    const remote = () => [...parts.exporters()].filter(isRegistryExporter);
    const site: QosSite = {
      version: DUBBO_RELEASE,
      providers: (): QosProvider[] =>
        remote().map((e) => ({ serviceKey: e.url.serviceKey, registered: e.registeredUrls().length > 0 })),
      consumers: () => [...parts.references()].map((r) => r.url.serviceKey),
      servedUrls: () => [...parts.exporters()].flatMap((e) => (e.url?.port ? [e.url.toString()] : [])),
      setOnline: async (pattern, online) => {
        const chosen = remote().filter((e) => matches(pattern, e.url));
        await Promise.all(chosen.map((e) => e.setOnline(online)));
        return chosen.length > 0;
      },
      isReady: parts.isReady,
      metricsText: () => prometheusText(this.#metrics),
    };
    this.#server = new QosServer(site, {
      port: parts.settings.qosPort,
      acceptForeignIp: parts.settings.qosAcceptForeignIp,
      logger: parts.logger,
    });
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
      this.#logger.warn(
        `the QoS port ${this.#settings.qosPort} could not be opened; running without it (set application.qosPort, or qosEnable: false)`,
        error,
      );
    }
  }

  async stop(): Promise<void> {
    this.#metrics.close();
    await this.#server.close();
  }
}
