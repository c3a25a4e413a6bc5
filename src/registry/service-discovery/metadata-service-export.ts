import type { Exporter, Protocol } from "../../core/index.js";
import { Url } from "../../core/index.js";
import type { MetadataInfo } from "../metadata/metadata-info.js";
import {
  createMetadataServiceInvoker,
  METADATA_SERVICE_INTERFACE,
  METADATA_SERVICE_VERSION,
  MetadataServiceDefinition,
} from "../metadata/metadata-service.js";

/**
 * The keys of Java's `dubbo.metadata-service.url-params`, in Java's order
 * (`RegistryProtocol.DEFAULT_REGISTER_PROVIDER_KEYS` without application, group, deprecated and
 * timestamp; then port and protocol).
 */
const URL_PARAMS_KEYS = [
  "codec",
  "exchanger",
  "serialization",
  "prefer.serialization",
  "cluster",
  "connections",
  "loadbalance",
  "mock",
  "path",
  "timeout",
  "token",
  "version",
  "warmup",
  "weight",
  "dubbo",
  "release",
  "side",
  "ipv6",
  "serialize.packable.factory",
  "auth",
  "authenticator",
  "username",
  "password",
];

/** What the metadata service shares with the service it is exported beside: the server and the wire. */
const SHARED_KEYS = ["bind.ip", "bind.port", "dubbo", "release", "serialization", "prefer.serialization"];

/**
 * The application's `org.apache.dubbo.metadata.MetadataService` (group = application, version
 * 1.0.0), exported once, beside the first service registered per instance with local storage, on
 * that service's protocol and port (as Java exports it on the application's protocol). It answers
 * from every registry's metadata, found by revision.
 */
export class MetadataServiceExport {
  readonly #app: string;
  readonly #metadata: () => readonly MetadataInfo[];
  #exporting: Promise<Exporter> | undefined;
  #url: Url | undefined;

  constructor(app: string, metadata: () => readonly MetadataInfo[]) {
    this.#app = app;
    this.#metadata = metadata;
  }

  /** Exports on `protocol` where `beside` is served, unless already exported. */
  async ensure(protocol: Protocol, beside: Url): Promise<void> {
    if (this.#exporting === undefined) {
      const shared = Object.fromEntries(
        [...beside.params].filter(([key]) => SHARED_KEYS.includes(key) || key.startsWith(".")),
      );
      const url = new Url({
        protocol: beside.protocol,
        host: beside.host,
        port: beside.port,
        path: METADATA_SERVICE_INTERFACE,
        params: {
          ...shared,
          application: this.#app,
          deprecated: "false",
          generic: "false",
          group: this.#app,
          interface: METADATA_SERVICE_INTERFACE,
          methods: Object.keys(MetadataServiceDefinition.methods).sort().join(","),
          side: "provider",
          version: METADATA_SERVICE_VERSION,
        },
      });
      const byRevision = (revision: unknown): MetadataInfo | undefined =>
        this.#metadata().find((m) => m.revision === revision);
      const invoker = createMetadataServiceInvoker(url, byRevision, this.#metadata);
      this.#exporting = protocol.export(invoker);
      this.#exporting.catch(() => {
        this.#exporting = undefined;
      });
      this.#url = (await this.#exporting).url ?? url;
    }
    await this.#exporting;
  }

  /** Java's `dubbo.metadata-service.url-params` JSON, once exported. */
  urlParams(): string | undefined {
    const url = this.#url;
    if (url === undefined) return undefined;
    const params: Record<string, string> = {};
    for (const key of URL_PARAMS_KEYS) {
      const value = url.get(key);
      if (value !== undefined && value.trim() !== "") params[key] = value;
    }
    params.port = String(url.port);
    params.protocol = url.protocol;
    return JSON.stringify(params);
  }

  async unexport(): Promise<void> {
    const exporting = this.#exporting;
    this.#exporting = undefined;
    this.#url = undefined;
    if (exporting !== undefined) await (await exporting).unexport();
  }
}
