import type { MonitorEvents } from "../event-stream.js";
import type { RegistryOperated } from "../events.js";
import { gaugeFamily, type Labels } from "./gauge-family.js";

/** Java 3's family prefix and help noun per registry operation (`MetricsKey`). */
const OPERATION_FAMILIES: Readonly<
  Record<RegistryOperated["operation"], readonly [prefix: string, help: string]>
> = {
  registerInstance: ["dubbo_registry_register_requests", "Register Requests"],
  registerService: ["dubbo_registry_register_service", "Service-Level Register Requests"],
  subscribe: ["dubbo_registry_subscribe_num", "Subscribe Num"],
  subscribeService: ["dubbo_registry_subscribe_service_num", "Service-Level Subscribe Num"],
};

/** The operations Java counts per service, with an `interface` label. */
const PER_SERVICE = new Set<RegistryOperated["operation"]>(["registerService", "subscribeService"]);

interface Counted {
  readonly labels: Labels;
  value: number;
}

/**
 * Java 3's registry metrics (`RegistryMetricsCollector`) over the monitor stream: registers and
 * subscribes (total, succeeded, failed) per registry and per service, notifications received and the size of the
 * last providers list per interface.
 */
export class RegistryMetrics {
  /** family name → label key → sample */
  readonly #families = new Map<string, Map<string, Counted>>();
  readonly #unsubscribe: Array<() => void>;

  constructor(events: MonitorEvents, application: string) {
    this.#unsubscribe = [
      events.on("registryOperated", (e) => {
        const [prefix] = OPERATION_FAMILIES[e.operation];
        const labels: Labels = PER_SERVICE.has(e.operation)
          ? { application_name: application, interface: e.service, registry_cluster: e.registry }
          : { application_name: application, registry_cluster: e.registry };
        this.#add(`${prefix}_total`, labels, 1);
        this.#add(`${prefix}_${e.succeeded ? "succeed" : "failed"}_total`, labels, 1);
        // Java reports a failed count of 0 beside the first success, and the other way round.
        this.#add(`${prefix}_${e.succeeded ? "failed" : "succeed"}_total`, labels, 0);
      }),
      events.on("registryNotified", (e) => {
        if (e.category !== "providers") return;
        this.#add("dubbo_registry_notify_requests_total", { application_name: application }, 1);
        this.#set(
          "dubbo_registry_notify_num_last",
          { application_name: application, interface: e.service },
          e.urls,
        );
      }),
    ];
  }

  /** The families in the text format, in Java's order. */
  lines(): string[] {
    const family = (name: string, help: string) =>
      gaugeFamily(
        name,
        help,
        [...(this.#families.get(name)?.values() ?? [])].map((c) => [c.labels, c.value] as const),
      );
    const lines: string[] = [];
    for (const [prefix, noun] of Object.values(OPERATION_FAMILIES)) {
      lines.push(
        ...family(`${prefix}_total`, `Total ${noun}`),
        ...family(`${prefix}_succeed_total`, `Succeed ${noun}`),
        ...family(`${prefix}_failed_total`, `Failed ${noun}`),
      );
    }
    lines.push(
      ...family("dubbo_registry_notify_requests_total", "Total Notify Requests"),
      ...family("dubbo_registry_notify_num_last", "Last Notify Nums"),
    );
    return lines;
  }

  close(): void {
    for (const off of this.#unsubscribe) off();
  }

  #sample(name: string, labels: Labels): Counted {
    let samples = this.#families.get(name);
    if (samples === undefined) {
      samples = new Map();
      this.#families.set(name, samples);
    }
    const key = Object.values(labels).join("\u0000");
    let sample = samples.get(key);
    if (sample === undefined) {
      sample = { labels, value: 0 };
      samples.set(key, sample);
    }
    return sample;
  }

  #add(name: string, labels: Labels, by: number): void {
    this.#sample(name, labels).value += by;
  }

  #set(name: string, labels: Labels, value: number): void {
    this.#sample(name, labels).value = value;
  }
}
