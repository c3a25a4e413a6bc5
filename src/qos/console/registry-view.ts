import { parse } from "yaml";
import { Code, javaUrlDecode, RpcError, Url } from "../../core/index.js";
import type { RegistryLogger } from "../../registry/index.js";
import {
  ENDPOINTS_KEY,
  parseInstanceJson,
  REVISION_KEY,
} from "../../registry/service-discovery/service-instance.js";
import { servicesRootOf } from "../../registry/service-discovery/zk-instance-registration.js";
import { ENCODED_PROTOCOL_SEPARATOR, rootPath } from "../../registry/zookeeper/zk-paths.js";
import { ZkSession } from "../../registry/zookeeper/zk-session.js";
import { RULE_SUFFIXES, type RuleKind } from "./rule-kinds.js";

/** The nodes under the root that are not services (Dubbo 3's config center, mapping, metadata). */
const NOT_SERVICES = new Set(["config", "mapping", "metadata"]);

/** One registered URL, as the console shows it. */
interface RegisteredUrl {
  readonly address: string;
  readonly application: string;
  readonly url: string;
  readonly parameters: Readonly<Record<string, string>>;
}

export interface ServiceEntry {
  readonly service: string;
  readonly providers: readonly RegisteredUrl[];
  readonly consumers: readonly RegisteredUrl[];
}

/** One instance of an application under `/services/{app}` (Dubbo 3's application-level discovery). */
interface InstanceEntry {
  /** `host:port`, the node's name. */
  readonly id: string;
  readonly address: string;
  readonly port: number;
  /** The metadata revision consumers fetch the instance's services by; "" when it has none. */
  readonly revision: string;
  /** The port of each protocol it serves (`dubbo.endpoints`). */
  readonly endpoints: ReadonlyArray<{ readonly protocol: string; readonly port: number }>;
  readonly metadata: Readonly<Record<string, string>>;
}

export interface ApplicationEntry {
  readonly application: string;
  readonly instances: readonly InstanceEntry[];
}

/** `dubbo.endpoints`' entries that name a protocol and a port (Java writes `[{port, protocol}]`). */
function endpointsOf(metadata: Readonly<Record<string, string>>, node: string): InstanceEntry["endpoints"] {
  const text = metadata[ENDPOINTS_KEY];
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new RpcError(
      `instance node ${node} has ${ENDPOINTS_KEY} that is not JSON: ${text}`,
      Code.InvalidArgument,
      {
        cause,
      },
    );
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((e: { protocol?: unknown; port?: unknown }) =>
    typeof e.protocol === "string" && typeof e.port === "number"
      ? [{ protocol: e.protocol, port: e.port }]
      : [],
  );
}

export interface RuleEntry {
  readonly kind: RuleKind;
  /** `interface:version:group` (service scope) or the application's name, as dubbo-admin keys it. */
  readonly key: string;
  readonly path: string;
  readonly yaml: string;
}

function registeredUrl(encoded: string): RegisteredUrl {
  const url = Url.decode(encoded);
  return {
    address: url.address,
    application: url.get("application") ?? "",
    url: url.toFullString(),
    parameters: Object.fromEntries(url.params),
  };
}

function ruleKindOf(node: string): RuleKind | undefined {
  return (Object.keys(RULE_SUFFIXES) as RuleKind[]).find((kind) => node.endsWith(RULE_SUFFIXES[kind]));
}

/**
 * A ZooKeeper registry as the console reads and changes it: the services with their providers and
 * consumers (`/dubbo/{interface}/{providers,consumers}`), the applications' instances
 * (`/services/{app}/{host:port}`), and dubbo-admin's rules in the config center
 * (`/dubbo/config/dubbo/{key}.configurators`, `.condition-router`, `.tag-router`). It reads on
 * demand (the page polls), so it keeps no watches.
 */
export class RegistryView {
  readonly #session: ZkSession;
  /** Where the instances live: `/services`, or the registry URL's `rootPath`/`group`. */
  readonly #servicesRoot: string;
  /** The registry's root path (`/dubbo`), "" for `/`, so paths join with a plain `/`. */
  readonly #base: string;
  #closed = false;

  private constructor(registry: Url, logger: RegistryLogger) {
    const root = rootPath(registry);
    this.#base = root === "/" ? "" : root;
    this.#servicesRoot = servicesRootOf(registry);
    this.#session = new ZkSession(registry, logger, {
      isDestroyed: () => this.#closed,
      onNewSession: () => {},
      onReconnected: () => {},
      onClientReplaced: () => {},
    });
  }

  /** Connects to the registry (`zookeeper://host:port?backup=…`, as applications give it). */
  static async open(registry: Url, logger: RegistryLogger): Promise<RegistryView> {
    if (registry.protocol !== "zookeeper") {
      throw new RpcError(
        `the console reads a ZooKeeper registry; ${registry.protocol}://${registry.address} is not one (give zookeeper://host:port)`,
        Code.InvalidArgument,
      );
    }
    const view = new RegistryView(registry, logger);
    await view.#session.start();
    return view;
  }

  get #rulesPath(): string {
    return `${this.#base}/config/dubbo`;
  }

  async services(): Promise<ServiceEntry[]> {
    const zk = this.#session.client;
    const names = ((await zk.getChildren(this.#base || "/")) ?? [])
      .filter((n) => !NOT_SERVICES.has(n))
      .sort();
    const urls = async (service: string, category: string) =>
      ((await zk.getChildren(`${this.#base}/${service}/${category}`)) ?? [])
        .filter((node) => node.includes(ENCODED_PROTOCOL_SEPARATOR))
        .map(registeredUrl)
        .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    return Promise.all(
      names.map(async (name) => ({
        service: javaUrlDecode(name),
        providers: await urls(name, "providers"),
        consumers: await urls(name, "consumers"),
      })),
    );
  }

  /** Every application with instances registered, sorted, each instance as Java's JSON gives it. */
  async applications(): Promise<ApplicationEntry[]> {
    const zk = this.#session.client;
    const apps = ((await zk.getChildren(this.#servicesRoot)) ?? []).sort();
    const entries = await Promise.all(
      apps.map(async (application): Promise<ApplicationEntry> => {
        const appPath = `${this.#servicesRoot}/${application}`;
        const nodes = ((await zk.getChildren(appPath)) ?? []).sort();
        const instances = await Promise.all(
          nodes.map(async (node): Promise<InstanceEntry | undefined> => {
            const path = `${appPath}/${node}`;
            const data = await zk.getData(path);
            // Gone between the listing and the read: the instance stopped.
            if (data === undefined) return undefined;
            const instance = parseInstanceJson(data.data.toString("utf8"), path);
            return {
              id: node,
              address: instance.host,
              port: instance.port,
              revision: instance.metadata[REVISION_KEY] ?? "",
              endpoints: endpointsOf(instance.metadata, path),
              metadata: instance.metadata,
            };
          }),
        );
        return { application, instances: instances.filter((i) => i !== undefined) };
      }),
    );
    return entries.filter((e) => e.instances.length > 0);
  }

  async rules(): Promise<RuleEntry[]> {
    const zk = this.#session.client;
    const nodes = (await zk.getChildren(this.#rulesPath)) ?? [];
    const rules = await Promise.all(
      nodes.sort().map(async (node): Promise<RuleEntry | undefined> => {
        const kind = ruleKindOf(node);
        if (kind === undefined) return undefined;
        const path = `${this.#rulesPath}/${node}`;
        const data = await zk.getData(path);
        if (data === undefined) return undefined;
        return {
          kind,
          key: node.slice(0, -RULE_SUFFIXES[kind].length),
          path,
          yaml: data.data.toString("utf8"),
        };
      }),
    );
    return rules.filter((r) => r !== undefined);
  }

  /** Writes (creates or replaces) a rule; the YAML must be a mapping, as dubbo-admin's rules are. */
  async putRule(kind: RuleKind, key: string, yaml: string): Promise<RuleEntry> {
    const path = this.#rulePath(kind, key);
    let parsed: unknown;
    try {
      parsed = parse(yaml);
    } catch (cause) {
      throw new RpcError(`the ${kind} rule for ${key} is not YAML: ${String(cause)}`, Code.InvalidArgument);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new RpcError(
        `the ${kind} rule for ${key} must be a YAML mapping (configVersion, scope, key, …)`,
        Code.InvalidArgument,
      );
    }
    const zk = this.#session.client;
    const data = Buffer.from(yaml, "utf8");
    if (await zk.exists(path)) await zk.setData(path, data, -1);
    else {
      await zk.mkdirp(this.#rulesPath);
      await zk.create(path, false, data);
    }
    return { kind, key, path, yaml };
  }

  /** Removes a rule; false when there was none. */
  async removeRule(kind: RuleKind, key: string): Promise<boolean> {
    const path = this.#rulePath(kind, key);
    const zk = this.#session.client;
    if (!(await zk.exists(path))) return false;
    await zk.remove(path);
    return true;
  }

  close(): void {
    this.#closed = true;
    this.#session.close();
  }

  #rulePath(kind: RuleKind, key: string): string {
    if (!(kind in RULE_SUFFIXES)) {
      throw new RpcError(
        `${String(kind)} is not a rule kind: use ${Object.keys(RULE_SUFFIXES).join(", ")}`,
        Code.InvalidArgument,
      );
    }
    if (key === "" || key.includes("/")) {
      throw new RpcError(
        `the rule key "${key}" must be an application name or interface:version:group, without "/"`,
        Code.InvalidArgument,
      );
    }
    return `${this.#rulesPath}/${key}${RULE_SUFFIXES[kind]}`;
  }
}
