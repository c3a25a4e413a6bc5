import { randomUUID } from "node:crypto";
import { networkInterfaces } from "node:os";

/** What a URL needs from the running process; pass fixed values for stable or testable URLs. */
export interface UrlRuntime {
  /**
   * Epoch ms stamped as `timestamp`. Default now. Keep it stable across re-registrations of one
   * export: Java consumers compute warm-up from it.
   */
  readonly timestamp?: number;
  /** `pid`. Default `process.pid`. */
  readonly pid?: number;
  /** Host advertised when the protocol binds all interfaces, and the consumer URL's host. Default {@link findLocalHost}. */
  readonly host?: string;
  /** Generates the token of a service configured with `token: true`. Default a random UUID. */
  readonly newToken?: () => string;
}

export interface RuntimeValues {
  readonly timestamp: number;
  readonly pid: number;
  readonly host: string;
  readonly newToken: () => string;
}

export function runtimeValues(runtime: UrlRuntime = {}): RuntimeValues {
  return {
    timestamp: runtime.timestamp ?? Date.now(),
    pid: runtime.pid ?? process.pid,
    host: runtime.host ?? findLocalHost(),
    newToken: runtime.newToken ?? randomUUID,
  };
}

/**
 * The address other machines can reach this one at: the first non-internal IPv4 address, else
 * loopback. (Java registers a routable IP too; 0.0.0.0 is never advertised.)
 */
export function findLocalHost(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === "IPv4" && !address.internal) return address.address;
    }
  }
  return "127.0.0.1";
}
