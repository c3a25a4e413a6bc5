import { type Code, RpcError, type Url } from "../../core/index.js";
import type { ExportedService } from "../shared/exporter-table.js";
import { permittedSerializationNames } from "../shared/permitted-serialization-names.js";
import { WRAPPER_HESSIAN2 } from "./wrapper-codec.js";

/**
 * Java 3.3's check on a wrapper's `serializeType` (`ReflectionPackableMethod`: the server's request
 * unpack, the client's response unpack): the name, with the wrappers' `hessian4` read as hessian2,
 * must be one the URL permits (`prefer.serialization`, `serialization`, hessian2), so a peer
 * cannot pick a deserializer this side never offered. Unlike the dubbo protocol's check it has no
 * off switch in Java. The names are listed once per export or reference; a call is one set lookup
 * (or one compare) on the name the wrapper decoder already made a string.
 */
export class WrapperSerializations {
  readonly #names: ReadonlySet<string>;

  constructor(url: Url) {
    this.#names = new Set(permittedSerializationNames(url));
  }

  /** Whether a wrapper may name `serializeType`. */
  permits(serializeType: string): boolean {
    // Hessian 2, what nearly every wrapper names, closes every list (the default): one compare.
    return serializeType === WRAPPER_HESSIAN2 || this.#names.has(serializeType);
  }

  /**
   * The error for a name not permitted, with Java's text ("Unexpected serialization type:…"):
   * `where` names the message and its peer, `fix` says what to change.
   */
  refusal(serializeType: string, code: Code, where: string, fix: string): RpcError {
    return new RpcError(
      `Unexpected serialization type:${serializeType} received from network, please check if the peer send the right id. ` +
        `${where} is serialized as "${serializeType}", not one of the permitted ${[...this.#names].join(", ")} ` +
        `(Hessian 2 travels as "${WRAPPER_HESSIAN2}"): ${fix}`,
      code,
    );
  }
}

const ofExports = new WeakMap<ExportedService, WrapperSerializations>();

/** What an export's requests may name, listed on its first request. */
export function exportSerializations(service: ExportedService): WrapperSerializations {
  let permitted = ofExports.get(service);
  if (permitted === undefined) {
    permitted = new WrapperSerializations(service.url);
    ofExports.set(service, permitted);
  }
  return permitted;
}
