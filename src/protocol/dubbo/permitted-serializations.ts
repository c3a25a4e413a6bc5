import { DEFAULT_SERVICE_VERSION } from "../../core/index.js";
import type { SerializationTable } from "../../serialize/index.js";
import type { ExportedService } from "../shared/exporter-table.js";
import { permittedSerializationNames } from "../shared/permitted-serialization-names.js";

/**
 * Java 3.3's provider-side serialization check (`PermittedSerializationKeeper`, applied by
 * `DecodeableRpcInvocation` before it reads the arguments): a request is read only in a
 * serialization its service permits, so a consumer cannot pick a deserializer the provider never
 * offered. Java 2.7.23 had it off by default and permitted only `serialization`; 3.3 turns it on
 * (system property `serialization.security.check`, default true). Set this key to `false` in a
 * service's or its protocol's `parameters` to read every serialization the application has.
 */
export const SERIALIZATION_CHECK_KEY = "serialization.security.check";

/** What one export permits, computed once per exported service. */
interface Permits {
  /** The service's version, "" for none (a request's `0.0.0` means none too). */
  readonly version: string;
  /** Header ids its requests may use; undefined when the check is off for it. */
  readonly ids: ReadonlySet<number> | undefined;
}

function withoutDefaultVersion(version: string | undefined): string {
  return version === undefined || version === DEFAULT_SERVICE_VERSION ? "" : version;
}

/**
 * One dubbo server's check. Java keys it by interface and version without the group, so a request
 * is permitted when any export of its path and version permits its id (or has the check off).
 * The per-call work is a lookup per export of the path (usually one) and a set membership test.
 */
export class PermittedSerializations {
  readonly #serializations: SerializationTable;
  readonly #permits = new WeakMap<ExportedService, Permits>();

  constructor(serializations: SerializationTable) {
    this.#serializations = serializations;
  }

  /**
   * Whether a request for `path` (whose exports are `exports`) at `version` may be read in
   * serialization `id`. A path or version nobody exports passes: the exporter lookup answers it.
   */
  permits(exports: readonly ExportedService[], version: string, id: number): boolean {
    const wanted = withoutDefaultVersion(version);
    let exported = false;
    for (let i = 0; i < exports.length; i++) {
      const permits = this.#of(exports[i]!);
      if (permits.version !== wanted) continue;
      if (permits.ids === undefined || permits.ids.has(id)) return true;
      exported = true;
    }
    return !exported;
  }

  /** `hessian2 (id 2), fastjson2 (id 23)`: what the exports of `path` at `version` permit, for the refusal. */
  describe(exports: readonly ExportedService[], version: string): string {
    const wanted = withoutDefaultVersion(version);
    const names = exports
      .filter((service) => this.#of(service).version === wanted)
      .flatMap((service) => permittedSerializationNames(service.url));
    return [...new Set(names)]
      .map((name) => {
        const id = this.#serializations.byName(name)?.id;
        return id === undefined ? `${name} (not in this application)` : `${name} (id ${id})`;
      })
      .join(", ");
  }

  #of(service: ExportedService): Permits {
    let permits = this.#permits.get(service);
    if (permits === undefined) {
      const url = service.url;
      const checked = url.get(SERIALIZATION_CHECK_KEY)?.trim().toLowerCase() !== "false";
      const ids = new Set<number>();
      // A name this application lacks (a Java provider's kryo) permits nothing, as Java skips it.
      for (const name of permittedSerializationNames(url)) {
        const id = this.#serializations.byName(name)?.id;
        if (id !== undefined) ids.add(id);
      }
      permits = { version: withoutDefaultVersion(url.get("version")), ids: checked ? ids : undefined };
      this.#permits.set(service, permits);
    }
    return permits;
  }
}
