import type { ExtensionPlugin, ExtensionPoint, FilterExtension } from "../core/index.js";
import { callEventFilterExtensions } from "./call-filter.js";
import type { MonitorEvents } from "./event-stream.js";
import { tracingFilterExtensions } from "./tracing/index.js";

export interface MonitorPluginPoints {
  readonly filter: ExtensionPoint<FilterExtension>;
  readonly monitor: MonitorEvents;
}

/**
 * The filters that emit the application's call events (Java 3's `metrics-provider` and consumer
 * filter) and the OpenTelemetry tracing filters (Java 3's `observationsender`/`observationreceiver`).
 */
export const monitorPlugin: ExtensionPlugin<MonitorPluginPoints> = {
  name: "monitor",
  register(points) {
    for (const [name, extension] of [
      ...callEventFilterExtensions(points.monitor),
      ...tracingFilterExtensions,
    ]) {
      points.filter.register(name, extension);
    }
  },
};
