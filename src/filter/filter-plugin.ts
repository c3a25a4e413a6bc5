import type { ExtensionPlugin, ExtensionPoint, FilterExtension, Logger } from "../core/index.js";
import { registerBaseFilters } from "./base-filters.js";
import { activesFilterExtension, executesFilterExtension, tpsFilterExtension } from "./limits/index.js";
import { createAccessLogFilter, createTimeoutFilter } from "./observe/index.js";
import { tokenFilterExtension } from "./token-filter.js";

export interface FilterPluginPoints {
  readonly filter: ExtensionPoint<FilterExtension>;
  /** Where the observing filters (access log, timeout overrun) write. */
  readonly logger: Logger;
}

/**
 * The built-in filters: the base ones, `token`, the limits (`executes`, `actives`, `tps`) and the
 * observers.
 */
export const filterPlugin: ExtensionPlugin<FilterPluginPoints> = {
  name: "filter",
  register(points) {
    registerBaseFilters(points.filter)
      .register("token", tokenFilterExtension)
      .register("executes", executesFilterExtension)
      .register("actives", activesFilterExtension)
      .register("tps", tpsFilterExtension)
      .register("accesslog", createAccessLogFilter({ logger: points.logger }))
      .register("timeout", createTimeoutFilter({ logger: points.logger }));
  },
};
