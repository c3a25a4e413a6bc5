import { DEFAULT_SERIALIZATION, type Url } from "../../core/index.js";

/**
 * The serializations a URL permits, as Java 3.3's `UrlUtils.allSerializations` lists them:
 * `prefer.serialization` (comma-separated), then `serialization`, then the default hessian2. The
 * dubbo protocol's provider reads a request only in one of them; Triple's wrapper mode checks the
 * name a request or response wrapper carries against them on both sides.
 */
export function permittedSerializationNames(url: Url): string[] {
  const names = (url.get("prefer.serialization") ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const configured = url.get("serialization")?.trim();
  if (configured !== undefined && configured !== "") names.push(configured);
  names.push(DEFAULT_SERIALIZATION);
  return [...new Set(names)];
}
