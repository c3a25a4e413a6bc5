import { Code, DEFAULT_PROTOCOL_NAME, RpcError } from "../core/index.js";
import type { Environment } from "./env-overrides.js";
import type { Given } from "./fields.js";
import type { ProtocolConfig } from "./protocol-config.js";

/**
 * Java's variables for a provider whose reachable address is not the one it binds (a container,
 * NAT), read as Java 2.7's `ServiceConfig` reads them, per protocol: `DUBBO_IP_TO_BIND` and
 * `DUBBO_PORT_TO_BIND` (where to listen; also registered unless overridden), `DUBBO_IP_TO_REGISTRY`
 * and `DUBBO_PORT_TO_REGISTRY` (what registries publish). Each is looked up first with the
 * protocol's name in front (`DUBBO_DUBBO_IP_TO_REGISTRY` for the dubbo protocol); with more than
 * one protocol the registry port is per protocol id (`<ID>_DUBBO_PORT_TO_REGISTRY`, e.g.
 * `DUBBO_DUBBO_PORT_TO_REGISTRY`). The result is protocol settings (`host`, `port`,
 * `registerHost`, `registerPort`) applied over the file and the code, as environment settings are.
 * @throws RpcError naming the variable when a host is loopback/any (which consumers cannot reach,
 * as Java refuses too) or a port is not 1-65535.
 */
export function readContainerAddresses(
  env: Environment,
  protocols: Readonly<Record<string, Given<ProtocolConfig>>>,
): Record<string, Given<ProtocolConfig>> {
  const configured = Object.entries(protocols);
  const entries: Array<[string, Given<ProtocolConfig>]> =
    configured.length === 0 ? [[DEFAULT_PROTOCOL_NAME, {}]] : configured;
  const out: Record<string, Given<ProtocolConfig>> = {};
  for (const [id, protocol] of entries) {
    const prefix = `${(protocol.name ?? DEFAULT_PROTOCOL_NAME).toUpperCase()}_`;
    const lookup = (key: string): [string, string] | undefined => {
      for (const name of [`${prefix}${key}`, key]) {
        const value = env[name]?.trim();
        if (value !== undefined && value !== "") return [name, value];
      }
      return undefined;
    };
    const settings: Given<ProtocolConfig> = {};
    const bindHost = lookup("DUBBO_IP_TO_BIND");
    if (bindHost !== undefined) settings.host = reachableHost(...bindHost);
    const registerHost = lookup("DUBBO_IP_TO_REGISTRY");
    if (registerHost !== undefined) settings.registerHost = reachableHost(...registerHost);
    const bindPort = lookup("DUBBO_PORT_TO_BIND");
    if (bindPort !== undefined) settings.port = port(...bindPort);
    const registerPortKey =
      entries.length > 1 ? `${id.toUpperCase()}_DUBBO_PORT_TO_REGISTRY` : "DUBBO_PORT_TO_REGISTRY";
    const registerPort = lookup(registerPortKey);
    if (registerPort !== undefined) settings.registerPort = port(...registerPort);
    if (Object.keys(settings).length > 0) out[id] = settings;
  }
  return out;
}

function reachableHost(variable: string, host: string): string {
  const lower = host.toLowerCase();
  if (lower === "localhost" || host === "0.0.0.0" || host.startsWith("127.")) {
    throw new RpcError(
      `environment variable ${variable} = ${JSON.stringify(host)}: expected an address other machines reach (not localhost, 127.* or 0.0.0.0)`,
      Code.InvalidArgument,
    );
  }
  return host;
}

function port(variable: string, text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    throw new RpcError(
      `environment variable ${variable} = ${JSON.stringify(text)}: expected a port from 1 to 65535`,
      Code.InvalidArgument,
    );
  }
  return n;
}
