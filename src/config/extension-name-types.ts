/** The extension points whose names a configuration mentions; the app checks each at start. */
export type ExtensionPointName =
  | "protocol"
  | "registry"
  | "cluster"
  | "loadbalance"
  | "filter"
  | "serialization"
  | "threadpool"
  | "dispatcher";

/**
 * The extension names every application registers before user code runs, by extension point.
 * Their union types the name-valued settings (`cluster`, `loadbalance`, `filters`, ...), so a
 * misspelt built-in name fails to compile. A test keeps this table equal to what the app registers.
 */
export const BUILTIN_EXTENSION_NAMES = {
  protocol: ["dubbo", "injvm", "tri"],
  registry: ["zookeeper", "dubbo"],
  cluster: ["failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available", "mergeable"],
  loadbalance: ["random", "roundrobin", "leastactive", "consistenthash", "shortestresponse"],
  filter: [
    "echo",
    "generic",
    "context",
    "exception",
    "consumercontext",
    "token",
    "executes",
    "actives",
    "tps",
    "accesslog",
    "timeout",
    "metrics-provider",
    "metricsConsumerFilter",
    "observationsender",
    "observationsenderpeer",
    "observationreceiver",
  ],
  serialization: ["hessian2", "fastjson"],
  threadpool: ["fixed", "limited", "cached", "eager", "worker"],
  dispatcher: ["all", "direct", "message", "execution", "connection"],
} as const satisfies Readonly<Record<ExtensionPointName, readonly string[]>>;

/**
 * Names of extensions your application registers itself, mapped to their extension point. Add
 * yours by declaration merging, so settings accept them while misspellings still fail to compile:
 *
 * ```ts
 * declare module "dubbo-ts" {
 *   interface CustomExtensions {
 *     "my-balancer": "loadbalance";
 *     audit: "filter";
 *   }
 * }
 * ```
 *
 * One name may serve several points (`mine: "cluster" | "loadbalance"`). Each entry is a separate
 * key, so several libraries can each add theirs.
 */
// biome-ignore lint/suspicious/noEmptyInterface: users augment it by declaration merging.
export interface CustomExtensions {}

type CustomNames<P extends ExtensionPointName> = {
  [N in keyof CustomExtensions]: P extends CustomExtensions[N] ? N : never;
}[keyof CustomExtensions];

/** The names a setting of extension point `P` accepts: the built-in ones and those in {@link CustomExtensions}. */
export type ExtensionName<P extends ExtensionPointName> =
  | (typeof BUILTIN_EXTENSION_NAMES)[P][number]
  | Extract<CustomNames<P>, string>;

/** A filter list entry: a filter name, `-name` to remove one, `default` / `-default` for the defaults. */
export type FilterListEntry =
  | ExtensionName<"filter">
  | `-${ExtensionName<"filter">}`
  | "default"
  | "-default";
