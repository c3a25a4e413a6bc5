import {
  Code,
  defineService,
  type Invoker,
  type JavaValue,
  java,
  RpcError,
  resultOf,
  type Url,
} from "../../core/index.js";
import type { MetadataInfo, ServiceInfo } from "./metadata-info.js";

/** The interface a Java 3 consumer calls for an instance's metadata (`storage-type=local`). */
export const METADATA_SERVICE_INTERFACE = "org.apache.dubbo.metadata.MetadataService";
/** Its version; its group is the provider's application name. */
export const METADATA_SERVICE_VERSION = "1.0.0";

const JavaServiceInfo = java.Class("org.apache.dubbo.metadata.MetadataInfo$ServiceInfo", {
  name: java.String,
  group: java.String,
  version: java.String,
  protocol: java.String,
  port: java.int,
  path: java.String,
  params: java.Map(java.String, java.String),
});

/** Java's `MetadataInfo` over Hessian: its serialized (non-transient) fields. */
const JavaMetadataInfo = java.Class("org.apache.dubbo.metadata.MetadataInfo", {
  app: java.String,
  revision: java.String,
  services: java.Map(java.String, JavaServiceInfo),
});

type JavaMetadataInfoValue = JavaValue<typeof JavaMetadataInfo>;

/**
 * The part of Java's `MetadataService` a Java 3.3 consumer calls: `getMetadataInfo(revision)`
 * during application-level discovery; `getMetadataInfos` and `version` for tools.
 */
export const MetadataServiceDefinition = defineService(METADATA_SERVICE_INTERFACE, {
  getMetadataInfo: { args: [java.String], returns: JavaMetadataInfo },
  getMetadataInfos: { args: [], returns: java.List(JavaMetadataInfo) },
  version: { args: [], returns: java.String },
});

function toJavaServiceInfo(service: ServiceInfo): JavaValue<typeof JavaServiceInfo> {
  return {
    name: service.name,
    group: service.group as string,
    version: service.version as string,
    protocol: service.protocol,
    port: service.port,
    path: service.path,
    params: new Map(Object.entries(service.params)),
  };
}

/** Our metadata as the Java object a Java consumer reads (`null` group/version when unset). */
function toJavaMetadataInfo(info: MetadataInfo): JavaMetadataInfoValue {
  return {
    app: info.app,
    revision: info.revision,
    services: new Map(Object.entries(info.services).map(([key, s]) => [key, toJavaServiceInfo(s)])),
  };
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = value instanceof Map ? [...value] : Object.entries((value as object | null) ?? {});
  for (const [k, v] of entries) if (typeof v === "string") out[String(k)] = v;
  return out;
}

function optionalText(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A `MetadataInfo` as a Java provider answers it (Hessian object) or writes it (JSON), read into ours. */
export function fromJavaMetadataInfo(value: unknown): MetadataInfo {
  const raw = (value ?? {}) as { app?: unknown; revision?: unknown; services?: unknown };
  const services: Record<string, ServiceInfo> = {};
  const entries =
    raw.services instanceof Map ? [...raw.services] : Object.entries((raw.services as object | null) ?? {});
  for (const [key, s] of entries) {
    const service = (s ?? {}) as Record<string, unknown>;
    services[String(key)] = {
      name: String(service.name ?? ""),
      group: optionalText(service.group),
      version: optionalText(service.version),
      protocol: String(service.protocol ?? ""),
      port: typeof service.port === "number" ? service.port : -1,
      path: String(service.path ?? service.name ?? ""),
      params: stringRecord(service.params),
    };
  }
  return { app: String(raw.app ?? ""), revision: String(raw.revision ?? ""), services };
}

/**
 * The provider invoker of the metadata service, answering from the application's metadata now. A
 * revision it does not have (an instance that changed since the consumer read it) answers null, as
 * Java's `MetadataServiceDelegation` does.
 */
export function createMetadataServiceInvoker(
  url: Url,
  byRevision: (revision: unknown) => MetadataInfo | undefined,
  all: () => readonly MetadataInfo[],
): Invoker {
  const answer = (method: string, args: readonly unknown[]): unknown => {
    if (method === "getMetadataInfo") {
      const info = byRevision(args[0]);
      return info === undefined ? null : toJavaMetadataInfo(info);
    }
    if (method === "getMetadataInfos") return all().map(toJavaMetadataInfo);
    if (method === "version") return METADATA_SERVICE_VERSION;
    throw new RpcError(
      `${METADATA_SERVICE_INTERFACE} has no method "${method}" here (methods: getMetadataInfo, getMetadataInfos, version)`,
      Code.Unimplemented,
    );
  };
  return {
    url,
    definition: MetadataServiceDefinition,
    invoke: async (inv) => resultOf(answer(inv.method, inv.args)),
    isAvailable: () => true,
    destroy: async () => {},
  };
}
