import { createRequire } from "node:module";

const requireFromHere = createRequire(import.meta.url);

/**
 * A package that loads on the first call of the returned function rather than with the module
 * that imports it: for a dependency only some applications use (YAML rules and files,
 * OpenTelemetry) whose callers are synchronous, where a dynamic `import()` cannot be awaited.
 * A static import would load it, and its CommonJS files, in every process. The package needs a
 * CommonJS entry (`require` resolves it); import its types with `import type`.
 */
export function loadOnFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireFromHere(specifier) as T;
    return loaded;
  };
}
