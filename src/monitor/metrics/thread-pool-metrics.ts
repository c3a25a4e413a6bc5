import type { ThreadPoolSizes } from "../../protocol/shared/index.js";
import type { MonitorEvents } from "../event-stream.js";
import { gaugeFamily, type Labels } from "./gauge-family.js";

/** What Java reports as the maximum of an unbounded pool (`Integer.MAX_VALUE`). */
const JAVA_UNBOUNDED = 2_147_483_647;

/** Java 3's gauges per pool (`ThreadPoolMetricsSampler`), read from the pool's live sizes. */
const FAMILIES: ReadonlyArray<readonly [name: string, help: string, read: (p: ThreadPoolSizes) => number]> = [
  [
    "dubbo_thread_pool_core_size",
    "Thread Pool Core Size",
    (p) => (Number.isFinite(p.threads) ? p.threads : 0),
  ],
  ["dubbo_thread_pool_largest_size", "Thread Pool Largest Size", (p) => p.largest],
  [
    "dubbo_thread_pool_max_size",
    "Thread Pool Max Size",
    (p) => (Number.isFinite(p.threads) ? p.threads : JAVA_UNBOUNDED),
  ],
  ["dubbo_thread_pool_active_size", "Thread Pool Active Size", (p) => p.active],
  // Node has no threads to count: the slots that have run a task, as a Java pool keeps its threads.
  ["dubbo_thread_pool_thread_count", "Thread Pool Thread Count", (p) => p.largest],
  ["dubbo_thread_pool_queue_size", "Thread Pool Queue Size", (p) => p.queued],
];

/** Java's name of a server's request pool: `DubboServerHandler-{port}`. */
function poolName(server: string): string {
  return `DubboServerHandler-${server.slice(server.lastIndexOf(":") + 1)}`;
}

/**
 * Java 3's thread-pool metrics over the monitor stream: the request pools of the application's
 * servers, sampled at a scrape, and the requests each refused.
 */
export class ThreadPoolMetrics {
  readonly #application: string;
  readonly #pools = new Map<string, ThreadPoolSizes>();
  readonly #rejected = new Map<string, number>();
  readonly #unsubscribe: Array<() => void>;

  constructor(events: MonitorEvents, application: string) {
    this.#application = application;
    this.#unsubscribe = [
      events.on("threadPoolOpened", (e) => this.#pools.set(poolName(e.server), e.pool)),
      events.on("threadPoolClosed", (e) => {
        this.#pools.delete(poolName(e.server));
        this.#rejected.delete(poolName(e.server));
      }),
      events.on("threadPoolSaturated", (e) => {
        const name = poolName(e.server);
        this.#rejected.set(name, (this.#rejected.get(name) ?? 0) + 1);
      }),
    ];
  }

  lines(): string[] {
    const labels = (name: string): Labels => ({
      application_name: this.#application,
      thread_pool_name: name,
    });
    const pools = [...this.#pools.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    return [
      ...FAMILIES.flatMap(([family, help, read]) =>
        gaugeFamily(
          family,
          help,
          pools.map(([name, pool]) => [labels(name), read(pool)] as const),
        ),
      ),
      ...gaugeFamily(
        "dubbo_thread_pool_reject_thread_count",
        "Thread Pool Reject Thread Count",
        pools.map(([name]) => [labels(name), this.#rejected.get(name) ?? 0] as const),
      ),
    ];
  }

  close(): void {
    for (const off of this.#unsubscribe) off();
  }
}
