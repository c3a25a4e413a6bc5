/** A service the application provides, as `ls` shows it. */
export interface QosProvider {
  /** `group/interface:version`. */
  readonly serviceKey: string;
  /** Whether it is registered in a registry now (`offline` unregisters it). */
  readonly registered: boolean;
}

/**
 * What the QoS commands read and change in their application; the application implements it,
 * so this layer needs nothing above it.
 */
export interface QosSite {
  /** The framework's version, as `version` prints it. */
  readonly version: string;
  providers(): QosProvider[];
  /** Service keys of the references. */
  consumers(): string[];
  /** The URLs the application serves on (`ps -l`). */
  servedUrls(): string[];
  /**
   * Unregisters (`online = false`) or registers again every provided service whose service key
   * or interface matches the regular expression; false when none matched.
   */
  setOnline(pattern: string, online: boolean): Promise<boolean>;
  /** Started and not stopping: `ready` / `startup`. */
  isReady(): boolean;
  /** Prometheus text of the application's metrics. */
  metricsText(): string;
}
