import { gaugeFamily, type Labels } from "./gauge-family.js";
import type { MetricsLines } from "./prometheus-text.js";

/** What one registry directory of a reference holds now (Java's `AbstractDirectory.getSummary`). */
export interface DirectoryCounts {
  /** The reference's service key (`group/interface:version`), Java's `interface` label. */
  readonly serviceKey: string;
  /** The registry's `host:port`. */
  readonly registry: string;
  /** `instance` for the application-level directory of a Dubbo 3 reference. */
  readonly registerMode: "interface" | "instance";
  /** Providers referred (Java's `invokers`). */
  readonly all: number;
  /** Referred providers whose link is usable (Java's `validInvokers`). */
  readonly valid: number;
  /** Referred providers whose link is down, being reconnected (Java's `invokersToReconnect`). */
  readonly toReconnect: number;
  /** Listed providers left out as disabled (`disabled=true`, by themselves or an override rule). */
  readonly disabled: number;
}

/** Java 3's directory families (`MetricsKey.DIRECTORY_METRIC_NUM_*`); `all` has no `_total`. */
const FAMILIES: ReadonlyArray<readonly [name: string, help: string, read: (c: DirectoryCounts) => number]> = [
  ["dubbo_registry_directory_num_all", "All Directory Urls", (c) => c.all],
  ["dubbo_registry_directory_num_valid_total", "Valid Directory Urls", (c) => c.valid],
  ["dubbo_registry_directory_num_to_reconnect_total", "ToReconnect Directory Urls", (c) => c.toReconnect],
  ["dubbo_registry_directory_num_disable_total", "Disable Directory Urls", (c) => c.disabled],
];

/**
 * Java 3's registry directory metrics, counted at a scrape from the references' directories (no
 * event per provider change). Labels as Java's `RegistrySpecListener.onPostOfDirectory` gives
 * them, in Micrometer's alphabetical order: the application, the service key, the register mode
 * and the registry.
 */
export function directoryMetrics(
  application: string,
  directories: () => Iterable<DirectoryCounts>,
): MetricsLines {
  return {
    lines() {
      const counted = [...directories()].map((c) => {
        const labels: Labels = {
          application_name: application,
          interface: c.serviceKey,
          register_mode: c.registerMode,
          registry: c.registry,
        };
        return [labels, c] as const;
      });
      return FAMILIES.flatMap(([name, help, read]) =>
        gaugeFamily(
          name,
          help,
          counted.map(([labels, c]) => [labels, read(c)] as const),
        ),
      );
    },
  };
}
