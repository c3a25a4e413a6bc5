import { Code, RpcError } from "../../core/index.js";

/** One running instance of an application (Java's `ServiceInstance`): where it listens and its metadata. */
export interface ServiceInstance {
  /** The application name. */
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** Java's instance metadata (`dubbo.metadata.revision`, `dubbo.endpoints`, …). */
  readonly metadata: Readonly<Record<string, string>>;
}

/** Instance metadata keys (Java's `ServiceInstanceMetadataUtils`). */
export const REVISION_KEY = "dubbo.metadata.revision";
export const STORAGE_TYPE_KEY = "dubbo.metadata.storage-type";
export const ENDPOINTS_KEY = "dubbo.endpoints";
export const METADATA_SERVICE_PARAMS_KEY = "dubbo.metadata-service.url-params";
export const METADATA_SERVICE_VERSION_KEY = "meta-v";
export const LOCAL_STORAGE = "local";
export const REMOTE_STORAGE = "remote";

/** The payload class Java's Curator service discovery (de)serializes (Jackson `@class`). */
const PAYLOAD_CLASS = "org.apache.dubbo.registry.zookeeper.ZookeeperInstance";

/** `host:port`, the instance id and its node name (Java's `CuratorFrameworkUtils.generateId`). */
export function instanceId(instance: Pick<ServiceInstance, "host" | "port">): string {
  return `${instance.host}:${instance.port}`;
}

function sortedRecord(record: Readonly<Record<string, string>>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key] as string;
  return sorted;
}

/**
 * The node data Java's Curator service discovery writes for an instance, field for field and in
 * Jackson's order: metadata sorted by key (Java's `getSortedMetadata`), an ephemeral `DYNAMIC`
 * instance, no SSL port, no URI spec.
 */
export function instanceJson(instance: ServiceInstance, registrationTimeUtc: number): string {
  const id = instanceId(instance);
  return JSON.stringify({
    name: instance.name,
    id,
    address: instance.host,
    port: instance.port,
    sslPort: null,
    payload: { "@class": PAYLOAD_CLASS, id, name: instance.name, metadata: sortedRecord(instance.metadata) },
    registrationTimeUTC: registrationTimeUtc,
    serviceType: "DYNAMIC",
    uriSpec: null,
  });
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string")
  );
}

/** Reads an instance node written by Java (or by us); throws naming the node when it is not one. */
export function parseInstanceJson(text: string, node: string): ServiceInstance {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new RpcError(`instance node ${node} does not hold JSON`, Code.InvalidArgument, { cause });
  }
  const data = parsed as {
    name?: unknown;
    address?: unknown;
    port?: unknown;
    payload?: { metadata?: unknown };
  };
  const metadata = data.payload?.metadata ?? {};
  if (
    typeof data.name !== "string" ||
    typeof data.address !== "string" ||
    typeof data.port !== "number" ||
    !isStringRecord(metadata)
  ) {
    throw new RpcError(
      `instance node ${node} is not a Curator service instance (name, address, port, payload.metadata)`,
      Code.InvalidArgument,
    );
  }
  return { name: data.name, host: data.address, port: data.port, metadata };
}

/** Java's `dubbo.endpoints`: the port of each protocol the instance serves. */
export function endpointsJson(ports: ReadonlyMap<string, number>): string {
  return JSON.stringify([...ports].map(([protocol, port]) => ({ port, protocol })));
}

/** The port the instance serves `protocol` on: its endpoint for it, else the instance port. */
export function endpointPort(instance: ServiceInstance, protocol: string): number {
  const text = instance.metadata[ENDPOINTS_KEY];
  if (text === undefined) return instance.port;
  try {
    const endpoints = JSON.parse(text) as Array<{ port?: unknown; protocol?: unknown }>;
    const match = endpoints.find((e) => e.protocol === protocol && typeof e.port === "number");
    return (match?.port as number | undefined) ?? instance.port;
  } catch {
    return instance.port;
  }
}
