import { Code, RpcError, type Url } from "../core/index.js";

/** A registry URL parameter that is set but not what its registry type accepts. */
export function badRegistryParam(
  registryType: string,
  url: Url,
  setting: string,
  key: string,
  expected: string,
): RpcError {
  return new RpcError(
    `${setting}: the ${registryType} registry at ${url.address} does not accept ${key}=${JSON.stringify(url.get(key))}; ` +
      `expected ${expected} (set it in the address or in the registry's parameters)`,
    Code.InvalidArgument,
  );
}

/** Checks that each of `keys` the URL sets is a whole number of milliseconds, at least `min`. */
export function assertMillisParams(
  registryType: string,
  url: Url,
  setting: string,
  keys: Readonly<Record<string, number>>,
): void {
  for (const [key, min] of Object.entries(keys)) {
    const text = url.get(key);
    if (text === undefined) continue;
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
      throw badRegistryParam(registryType, url, setting, key, `a whole number of ms, at least ${min}`);
    }
  }
}
