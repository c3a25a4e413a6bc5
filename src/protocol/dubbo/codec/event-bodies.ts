import { HESSIAN2_SERIALIZATION_ID } from "../../../core/index.js";
import type { SerializationTable } from "../../../serialize/index.js";
import { type EventCodec, hessian2EventCodec } from "../exchange/index.js";

/** The one value of an event or error body in another serialization, or undefined if unreadable. */
function readOnly(table: SerializationTable, body: Buffer, serializationId: number): unknown {
  const serialization = table.byId(serializationId);
  if (serialization === undefined) return undefined;
  try {
    return serialization.createInput(body).readValue();
  } catch {
    return undefined;
  }
}

/**
 * The exchange's event and error bodies with the application's serializations: written in Hessian 2
 * (peers read them by the header's id), read in the frame's own serialization, since a Java peer
 * writes its events and error messages in its URL's (a `fastjson` provider's READONLY is `"R"`).
 */
export function serializationEventCodec(table: SerializationTable): EventCodec {
  return {
    ...hessian2EventCodec,
    decodeEvent(body, serializationId) {
      if (serializationId === HESSIAN2_SERIALIZATION_ID)
        return hessian2EventCodec.decodeEvent(body, serializationId);
      const value = readOnly(table, body, serializationId);
      return value === null || typeof value === "string" ? value : undefined;
    },
    decodeErrorMessage(body, serializationId) {
      if (serializationId === HESSIAN2_SERIALIZATION_ID) {
        return hessian2EventCodec.decodeErrorMessage(body, serializationId);
      }
      const value = readOnly(table, body, serializationId);
      return typeof value === "string"
        ? value
        : `<${body.length} bytes in serialization id ${serializationId}, not readable here>`;
    },
  };
}
