import { Code, createInvocation, RpcError, Url } from "../../core/index.js";
import { type ProtocolSource, protocolFor } from "../directory/registry-directory.js";
import type { MetadataInfo } from "../metadata/metadata-info.js";
import {
  fromJavaMetadataInfo,
  METADATA_SERVICE_INTERFACE,
  METADATA_SERVICE_VERSION,
  MetadataServiceDefinition,
} from "../metadata/metadata-service.js";
import type { ZkMetadataReport } from "../metadata/zk-metadata-report.js";
import {
  METADATA_SERVICE_PARAMS_KEY,
  REMOTE_STORAGE,
  REVISION_KEY,
  type ServiceInstance,
  STORAGE_TYPE_KEY,
} from "./service-instance.js";

/** Java's default `dubbo.metadata-service.timeout`-like budget for one metadata call (ms). */
const METADATA_CALL_TIMEOUT_MS = 5000;

/** The instance's revision (what its metadata is cached by). */
export function revisionOfInstance(instance: ServiceInstance): string | undefined {
  return instance.metadata[REVISION_KEY];
}

/** Where the instance's metadata service listens, from its `dubbo.metadata-service.url-params`. */
function metadataServiceUrl(instance: ServiceInstance): Url {
  let params: Record<string, string> = {};
  const text = instance.metadata[METADATA_SERVICE_PARAMS_KEY];
  if (text !== undefined) {
    try {
      params = JSON.parse(text) as Record<string, string>;
    } catch {
      params = {};
    }
  }
  const { port, protocol, ...rest } = params;
  return new Url({
    protocol: protocol ?? "dubbo",
    host: instance.host,
    port: port === undefined ? instance.port : Number(port),
    path: METADATA_SERVICE_INTERFACE,
    params: {
      ...rest,
      interface: METADATA_SERVICE_INTERFACE,
      group: instance.name,
      version: METADATA_SERVICE_VERSION,
      side: "consumer",
      connections: "1",
      retries: "0",
      check: "false",
      timeout: String(METADATA_CALL_TIMEOUT_MS),
    },
  });
}

/**
 * Fetches what an instance's revision stands for, once per application and revision (a revision's
 * metadata never changes): from the remote report for `storage-type=remote`, else by calling the
 * instance's `MetadataService.getMetadataInfo(revision)` (Java's `MetadataUtils.getRemoteMetadata`).
 * A failed fetch is forgotten, so the next change of the instance list tries again.
 */
export class MetadataFetcher {
  readonly #report: ZkMetadataReport;
  readonly #protocol: ProtocolSource;
  readonly #cache = new Map<string, Promise<MetadataInfo>>();

  constructor(report: ZkMetadataReport, protocol: ProtocolSource) {
    this.#report = report;
    this.#protocol = protocol;
  }

  /** The metadata of this instance's revision: fetched on first use, then from the cache. */
  fetch(instance: ServiceInstance): Promise<MetadataInfo> {
    const revision = revisionOfInstance(instance) ?? "";
    const key = `${instance.name}/${revision}`;
    let pending = this.#cache.get(key);
    if (pending === undefined) {
      pending = this.#load(instance, revision);
      this.#cache.set(key, pending);
      pending.catch(() => {
        if (this.#cache.get(key) === pending) this.#cache.delete(key);
      });
    }
    return pending;
  }

  async #load(instance: ServiceInstance, revision: string): Promise<MetadataInfo> {
    if (instance.metadata[STORAGE_TYPE_KEY] === REMOTE_STORAGE) {
      return this.#report.readMetadata(instance.name, revision);
    }
    const url = metadataServiceUrl(instance);
    const protocol = protocolFor(this.#protocol, url.protocol);
    if (protocol === undefined) {
      throw new RpcError(
        `cannot read the metadata of ${instance.name} at ${url.address}: its metadata service speaks ${url.protocol}, which this application has no protocol for`,
        Code.FailedPrecondition,
      );
    }
    const invoker = await protocol.refer(url);
    try {
      const method = MetadataServiceDefinition.methods.getMetadataInfo;
      const result = await invoker.invoke(
        createInvocation({
          service: METADATA_SERVICE_INTERFACE,
          method: "getMetadataInfo",
          args: [revision],
          parameterTypes: method.args,
          returnType: method.returns,
          group: instance.name,
          version: METADATA_SERVICE_VERSION,
        }),
      );
      if (result.value === null || result.value === undefined) {
        throw new RpcError(
          `the metadata service of ${instance.name} at ${url.address} has no revision ${revision} (it changed since)`,
          Code.NotFound,
        );
      }
      return fromJavaMetadataInfo(result.value);
    } finally {
      await invoker.destroy().catch(() => {});
    }
  }
}
