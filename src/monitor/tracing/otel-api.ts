import type * as OtelApi from "@opentelemetry/api";
import { loadOnFirstUse } from "../../core/index.js";

/**
 * `@opentelemetry/api`, loaded once a tracer provider is registered: an application that does not
 * trace never loads its 44 CommonJS files.
 */
export const otelApi = loadOnFirstUse<typeof OtelApi>("@opentelemetry/api");

/**
 * The slot on `globalThis` that every copy of the API (major version 1) shares and where
 * `trace.setGlobalTracerProvider`, which an SDK's `register()` calls, puts the provider.
 */
const GLOBAL_API_SLOT = Symbol.for("opentelemetry.js.api.1");

/**
 * Whether some copy of the API has a global tracer provider: until then no span can be made, so
 * the API need not load and a call pays one property read.
 */
export function tracerProviderRegistered(): boolean {
  const slot = (globalThis as { [GLOBAL_API_SLOT]?: { trace?: unknown } })[GLOBAL_API_SLOT];
  return slot?.trace !== undefined;
}
