import {
  Code,
  DEFAULT_CHECK,
  DEFAULT_DUBBO_REGISTRY_PORT,
  DEFAULT_REGISTER,
  DEFAULT_REGISTRY_FILE_CACHE,
  DEFAULT_REGISTRY_PROTOCOL,
  DEFAULT_REGISTRY_SESSION_MS,
  DEFAULT_REGISTRY_TIMEOUT_MS,
  DEFAULT_SUBSCRIBE,
  DEFAULT_ZOOKEEPER_PORT,
  RpcError,
  Url,
} from "../core/index.js";
import { joinPath, readRecord } from "./errors.js";
import type { ExtensionName } from "./extension-name-types.js";
import {
  booleanField,
  choiceField,
  extensionField,
  type FieldTable,
  type Given,
  integerField,
  JAVA_INT_MAX,
  parametersField,
  readFields,
  textField,
} from "./fields.js";

/** A registry (Java `RegistryConfig`, `dubbo.registry.*` or `dubbo.registries.<id>.*`). */
export interface RegistryConfig {
  /**
   * Required. `zookeeper://127.0.0.1:2181?backup=127.0.0.1:2182`, `zookeeper://a:2181,b:2181`
   * (extra hosts become `backup`), `127.0.0.1:2181` (with `protocol`), `dubbo://host:port`, or `N/A`
   * for no registry. Several registries in one address are separated by `|` or `;`.
   * Java `dubbo.registry.address`.
   */
  address?: string;
  /** Registry type when the address has no `scheme://`. Default "dubbo". URL protocol. */
  protocol?: ExtensionName<"registry">;
  /** ZooKeeper root node (`/dubbo` when unset). URL key `group`. */
  group?: string;
  /** Registry user (also accepted in the address as `user:password@`). */
  username?: string;
  /** Registry password. */
  password?: string;
  /** Ms to connect to the registry. Default 5000. URL key `timeout`. Java `dubbo.registry.timeout`. */
  timeoutMs?: number;
  /** Registry session timeout in ms (ZooKeeper). Default 60000. URL key `session`. */
  sessionMs?: number;
  /** Fail at start when the registry cannot be reached. Default true. URL key `check`. */
  check?: boolean;
  /** Register providers (and consumers) here. Default true. URL key `register`. */
  register?: boolean;
  /** Subscribe to providers here. Default true. URL key `subscribe`. */
  subscribe?: boolean;
  /** Local cache file of discovered providers. Default `~/.dubbo/dubbo-registry-<app>-<address>.cache`. URL key `file`. */
  file?: string;
  /** Keep and use the local provider cache when the registry is down. Default true. URL key `file.cache`. */
  useFileCache?: boolean;
  /** Dubbo 3: "all", "interface" or "instance" for this registry (else the application's). URL key `register-mode`. */
  registerMode?: "all" | "interface" | "instance";
  /** Extra registry URL parameters. */
  parameters?: Readonly<Record<string, string>>;
}

export interface ResolvedRegistryConfig {
  readonly id: string;
  /** The address as given. */
  readonly address: string;
  /** `N/A`: the registry is configured off. */
  readonly disabled: boolean;
  /** One URL per registry in the address (protocol, host, port, credentials, `backup`); empty when disabled. */
  readonly endpoints: readonly Url[];
  readonly group?: string;
  readonly username?: string;
  readonly password?: string;
  readonly timeoutMs: number;
  readonly sessionMs: number;
  readonly check: boolean;
  readonly register: boolean;
  readonly subscribe: boolean;
  readonly file?: string;
  readonly useFileCache: boolean;
  readonly registerMode?: "all" | "interface" | "instance";
  readonly parameters: Readonly<Record<string, string>>;
  readonly given: Given<RegistryConfig>;
}

export const REGISTRY_FIELDS: FieldTable<RegistryConfig> = {
  address: textField(),
  protocol: extensionField("registry"),
  group: textField({ urlKey: "group" }),
  username: textField(),
  password: textField({ secret: true, numbersAsText: true }),
  timeoutMs: integerField(1, JAVA_INT_MAX, "ms", { aliases: ["timeout"], urlKey: "timeout" }),
  sessionMs: integerField(1, JAVA_INT_MAX, "ms", { aliases: ["session"], urlKey: "session" }),
  check: booleanField({ urlKey: "check" }),
  register: booleanField({ urlKey: "register" }),
  subscribe: booleanField({ urlKey: "subscribe" }),
  file: textField({ urlKey: "file" }),
  useFileCache: booleanField({ aliases: ["file.cache"], urlKey: "file.cache" }),
  registerMode: choiceField(["all", "interface", "instance"], { urlKey: "register-mode" }),
  parameters: parametersField(),
};

export function readRegistry(input: unknown, path: string, fromText = false): Given<RegistryConfig> {
  return readFields(REGISTRY_FIELDS, readRecord(input, path), path, { fromText });
}

/**
 * Resolves one registry into a new frozen object with its address parsed.
 * @throws RpcError (InvalidArgument) naming the bad key, its value and what is accepted.
 */
export function resolveRegistry(
  options: RegistryConfig,
  id = "default",
  path = `registries.${id}`,
): ResolvedRegistryConfig {
  const given = Object.freeze(readRegistry(options, path));
  if (given.address === undefined) {
    throw new RpcError(
      `${joinPath(path, "address")} is required, e.g. zookeeper://127.0.0.1:2181 or N/A for no registry`,
      Code.InvalidArgument,
    );
  }
  const disabled = given.address.toUpperCase() === "N/A";
  const { protocol: _protocol, address, ...rest } = given;
  return Object.freeze({
    timeoutMs: DEFAULT_REGISTRY_TIMEOUT_MS,
    sessionMs: DEFAULT_REGISTRY_SESSION_MS,
    check: DEFAULT_CHECK,
    register: DEFAULT_REGISTER,
    subscribe: DEFAULT_SUBSCRIBE,
    useFileCache: DEFAULT_REGISTRY_FILE_CACHE,
    parameters: Object.freeze({}),
    ...rest,
    id,
    address,
    disabled,
    endpoints: disabled ? Object.freeze([]) : parseRegistryAddress(address, given, joinPath(path, "address")),
    given,
  });
}

const EXPECTED_ADDRESS = "a registry address like zookeeper://127.0.0.1:2181, 127.0.0.1:2181 or N/A";

function badAddress(path: string, address: string, why: string): RpcError {
  return new RpcError(
    `invalid setting ${path} = ${JSON.stringify(address)}: ${why}; expected ${EXPECTED_ADDRESS}`,
    Code.InvalidArgument,
  );
}

/** Splits `a|b` into registries and `host1,host2` into host + `backup`, as Java's `UrlUtils.parseURL`. */
function parseRegistryAddress(address: string, given: Given<RegistryConfig>, path: string): readonly Url[] {
  const parts = address.split(/\s*[|;]+\s*/).filter((p) => p !== "");
  if (parts.length === 0) throw badAddress(path, address, "no address in it");
  return Object.freeze(
    parts.map((part) => {
      if (part.toUpperCase() === "N/A") throw badAddress(path, address, "N/A must stand alone");
      const schemeAt = part.indexOf("://");
      const scheme = schemeAt >= 0 ? part.slice(0, schemeAt) : undefined;
      if (scheme !== undefined && given.protocol !== undefined && scheme !== given.protocol) {
        throw badAddress(path, address, `its protocol "${scheme}" contradicts protocol="${given.protocol}"`);
      }
      const protocol = scheme ?? given.protocol ?? DEFAULT_REGISTRY_PROTOCOL;
      const body = schemeAt >= 0 ? part.slice(schemeAt + 3) : part;
      const hostEnd = body.search(/[/?]/);
      const hosts = (hostEnd >= 0 ? body.slice(0, hostEnd) : body).split(",").map((h) => h.trim());
      const tail = hostEnd >= 0 ? body.slice(hostEnd) : "";
      let url: Url;
      try {
        url = Url.parse(`${protocol}://${hosts[0] ?? ""}${tail}`);
      } catch (cause) {
        throw badAddress(path, address, cause instanceof Error ? cause.message : String(cause));
      }
      if (url.host === "") throw badAddress(path, address, "no host in it");
      const backups = [...url.list("backup"), ...hosts.slice(1).filter((h) => h !== "")];
      return url
        .with({
          port: url.port === 0 ? defaultRegistryPort(protocol) : url.port,
          ...(given.username === undefined ? {} : { username: given.username }),
          ...(given.password === undefined ? {} : { password: given.password }),
        })
        .withParams(backups.length === 0 ? {} : { backup: backups.join(",") });
    }),
  );
}

function defaultRegistryPort(protocol: string): number {
  if (protocol === "zookeeper") return DEFAULT_ZOOKEEPER_PORT;
  if (protocol === "dubbo") return DEFAULT_DUBBO_REGISTRY_PORT;
  return 0;
}
