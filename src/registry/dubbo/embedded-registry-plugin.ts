import type { Url } from "../../core/index.js";
import { type RegistryExtension, registryPlugin } from "../registry-factory.js";
import { assertMillisParams } from "../url-settings.js";

/** The embedded registry client's times (its `DubboRegistry` clamps them further). */
function validateEmbeddedRegistryUrl(url: Url, setting: string): void {
  assertMillisParams("dubbo", url, setting, { lease: 1, "watch.wait": 1, timeout: 1 });
}

/** The `dubbo` registry type: the client of the embedded registry, loaded on first use. */
export const embeddedRegistryType: RegistryExtension = {
  create: async (url, context) => (await import("./dubbo-registry.js")).createDubboRegistry(url, context),
  validate: validateEmbeddedRegistryUrl,
};

export const embeddedRegistryPlugin = registryPlugin("dubbo", embeddedRegistryType);
