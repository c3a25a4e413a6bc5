import { Url } from "../../core/index.js";
import type { MetadataInfo, ServiceInfo } from "../metadata/metadata-info.js";
import { endpointPort, type ServiceInstance } from "./service-instance.js";

/** Instance metadata that also reads as a provider URL parameter (`timestamp` drives warmup). */
const INSTANCE_URL_PARAMS = ["timestamp", "heartbeat.timeout", "ipv6"];

function sameOrAny(wanted: string | undefined, actual: string | undefined): boolean {
  if (wanted === "*") return true;
  return (wanted ?? "") === (actual ?? "");
}

/** Whether `service` is what the consumer refers to: interface, group, version, and protocol if it names one. */
function serves(service: ServiceInfo, consumerUrl: Url): boolean {
  const protocol = consumerUrl.get("protocol");
  return (
    service.name === consumerUrl.serviceInterface &&
    sameOrAny(consumerUrl.get("group"), service.group) &&
    sameOrAny(consumerUrl.get("version"), service.version) &&
    (protocol === undefined || protocol === "" || protocol === service.protocol)
  );
}

/**
 * The provider URLs application-level discovery yields for one consumer (what Java's
 * `InstanceAddressURL` stands for): per instance, each matching service of its revision's metadata
 * at the instance's host and the port of its protocol's endpoint, with the service's parameters.
 */
export function providerUrlsOf(
  instances: readonly ServiceInstance[],
  metadataOf: (instance: ServiceInstance) => MetadataInfo | undefined,
  consumerUrl: Url,
): Url[] {
  const urls: Url[] = [];
  for (const instance of instances) {
    const metadata = metadataOf(instance);
    if (metadata === undefined) continue;
    const instanceParams: Record<string, string> = {};
    for (const key of INSTANCE_URL_PARAMS) {
      const value = instance.metadata[key];
      if (value !== undefined) instanceParams[key] = value;
    }
    for (const service of Object.values(metadata.services)) {
      if (!serves(service, consumerUrl)) continue;
      urls.push(
        new Url({
          protocol: service.protocol,
          host: instance.host,
          port: endpointPort(instance, service.protocol),
          path: service.path,
          params: { ...instanceParams, ...service.params },
        }),
      );
    }
  }
  return urls;
}
