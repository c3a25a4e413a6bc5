import { createHash } from "node:crypto";
import { buildServiceKey, type Url } from "../../core/index.js";
import { LOCAL_ONLY_KEYS } from "../protocol/registry-urls.js";

/**
 * One exported service as Dubbo 3 application-level discovery describes it (Java's
 * `MetadataInfo.ServiceInfo`): what a consumer needs to turn an instance address into a provider
 * URL of this service.
 */
export interface ServiceInfo {
  readonly name: string;
  readonly group?: string | undefined;
  readonly version?: string | undefined;
  readonly protocol: string;
  readonly port: number;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
}

/** What one application exports (Java's `MetadataInfo`), keyed by each service's match key. */
export interface MetadataInfo {
  readonly app: string;
  /** The MD5 of the services' description, "0" when there is none (Java's `EMPTY_REVISION`). */
  readonly revision: string;
  readonly services: Readonly<Record<string, ServiceInfo>>;
}

export const EMPTY_REVISION = "0";

/**
 * Keys that describe this process, not the service, so two instances of one application share a
 * revision (Java's `DefaultMetadataParamsFilter.excludedServiceParams`): the keys that never reach
 * a registry, plus pid, timestamp, heartbeat.timeout and ipv6. A key is left out when it equals
 * one of these (ignoring case) or contains `.` + one of them (`sayHello.timestamp`).
 */
const EXCLUDED_SERVICE_PARAMS = [...LOCAL_ONLY_KEYS, "pid", "timestamp", "heartbeat.timeout", "ipv6"];

function isServiceParam(key: string): boolean {
  const lower = key.toLowerCase();
  return !EXCLUDED_SERVICE_PARAMS.some((excluded) => lower === excluded || key.includes(`.${excluded}`));
}

/** Java's `ServiceInfo(URL, filters)` for a registered provider URL. */
export function serviceInfoOf(url: Url): ServiceInfo {
  const params: Record<string, string> = {};
  for (const [key, value] of url.params) if (isServiceParam(key)) params[key] = value;
  return {
    name: url.serviceInterface,
    group: url.get("group"),
    version: url.get("version"),
    protocol: url.protocol,
    port: url.port,
    path: url.path,
    params,
  };
}

/** `group/interface:version:protocol` (Java's `ServiceInfo.getMatchKey`). */
function matchKeyOf(service: ServiceInfo): string {
  const key = buildServiceKey(service.name, service.group, service.version);
  return service.protocol === "" ? key : `${key}:${service.protocol}`;
}

/** Java's `TreeMap.toString()`: `{a=1, b=2}` in key order. */
function sortedMapText(params: Readonly<Record<string, string>>): string {
  const entries = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key]}`);
  return `{${entries.join(", ")}}`;
}

/**
 * Java's `MetadataInfo.calRevision`: the lower-case hex MD5 of the application name followed by
 * each service's match key, port, path and sorted parameters, services in match-key order.
 */
function revisionOf(app: string, services: Readonly<Record<string, ServiceInfo>>): string {
  const keys = Object.keys(services).sort();
  if (keys.length === 0) return EMPTY_REVISION;
  let text = app;
  for (const key of keys) {
    const service = services[key] as ServiceInfo;
    text += `${matchKeyOf(service)}${service.port}${service.path}${sortedMapText(service.params)}`;
  }
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** The metadata of `app` exporting these registered provider URLs. */
export function metadataInfoOf(app: string, urls: Iterable<Url>): MetadataInfo {
  const services: Record<string, ServiceInfo> = {};
  for (const url of urls) {
    const service = serviceInfoOf(url);
    services[matchKeyOf(service)] = service;
  }
  return { app, revision: revisionOf(app, services), services };
}
