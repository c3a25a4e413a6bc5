import type { MonitorEvents } from "../event-stream.js";
import type { CallSite } from "../events.js";
import { MethodStats } from "./method-stats.js";

/** One method's counts and the site (side, application, interface, group, version) they belong to. */
export interface MethodMetrics {
  readonly site: CallSite;
  readonly method: string;
  readonly stats: MethodStats;
}

/**
 * Java 3's method-level request metrics, fed by the monitor stream. Sites are shared per invoker,
 * so the per-call lookup is a map hit on the site object and one on the method name; the key
 * strings Prometheus needs are built only at a scrape.
 */
export class CallMetrics {
  readonly #bySite = new Map<string, Map<string, MethodMetrics>>();
  readonly #siteKeys = new WeakMap<CallSite, Map<string, MethodMetrics>>();
  readonly #now: () => number;
  readonly #unsubscribe: Array<() => void>;

  constructor(events: MonitorEvents, now: () => number = Date.now) {
    this.#now = now;
    this.#unsubscribe = [
      events.on("callStarted", (e) => this.#method(e.site, e.method).stats.started(this.#now())),
      events.on("callFinished", (e) =>
        this.#method(e.site, e.method).stats.finished(e.outcome, e.durationMs),
      ),
    ];
  }

  /** Every method seen so far, in a stable order (side, interface, group, version, method). */
  methods(): MethodMetrics[] {
    return [...this.#bySite.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([, methods]) => [...methods.values()].sort((a, b) => (a.method < b.method ? -1 : 1)));
  }

  now(): number {
    return this.#now();
  }

  /** Stops listening (the counts stay readable). */
  close(): void {
    for (const off of this.#unsubscribe) off();
  }

  #method(site: CallSite, method: string): MethodMetrics {
    let methods = this.#siteKeys.get(site);
    if (methods === undefined) {
      // Two invokers of one service (two providers) share the same counts, as in Java.
      const key = `${site.side}\u0000${site.application}\u0000${site.service}\u0000${site.group}\u0000${site.version}`;
      methods = this.#bySite.get(key);
      if (methods === undefined) {
        methods = new Map();
        this.#bySite.set(key, methods);
      }
      this.#siteKeys.set(site, methods);
    }
    let entry = methods.get(method);
    if (entry === undefined) {
      entry = { site, method, stats: new MethodStats(this.#now()) };
      methods.set(method, entry);
    }
    return entry;
  }
}
