// The application behind `dubbo-ts invoke` and `dubbo-ts ls`: no QoS port, no shutdown hook, no
// registry cache file, errors only in the log, and it registers nothing in the registry.
import { createDubbo, type DubboApplication } from "../app/index.js";
import { Url } from "../core/index.js";
import { resolveRegistryUrl } from "../registry/index.js";
import { UsageError } from "./flags.js";

export const CLI_APPLICATION = "dubbo-ts-cli";

/** Where a command goes: a provider (`dubbo://host:port`) or a registry (any other scheme). */
export type Target = { readonly provider: string } | { readonly registry: string };

/**
 * `dubbo://host:port` names a provider; `zookeeper://…` or Java's `registry://host:port?registry=…`
 * form names a registry (the embedded registry is `registry://host:9090`, which means `dubbo://`).
 */
export function parseTarget(text: string, what: string): Target {
  let url: Url;
  try {
    url = Url.parse(text);
  } catch {
    throw new UsageError(
      `${what} "${text}" is not a URL; give dubbo://host:port or a registry URL such as zookeeper://host:2181`,
    );
  }
  if (!text.includes("://") || url.host === "") {
    throw new UsageError(
      `${what} "${text}" has no scheme://host; give dubbo://host:port or a registry URL such as zookeeper://host:2181`,
    );
  }
  if (url.protocol === "dubbo") return { provider: text };
  return { registry: resolveRegistryUrl(url).toFullString() };
}

/** A quiet consumer application, with the registry of `target` when it names one. */
export function createCliApplication(target: Target | undefined): Promise<DubboApplication> {
  return createDubbo({
    application: { name: CLI_APPLICATION, qosEnable: false },
    logLevel: "error",
    env: false,
    shutdownHook: false,
    ...(target !== undefined && "registry" in target
      ? { registry: { address: target.registry, register: false, parameters: { "file.cache": "false" } } }
      : {}),
  });
}
