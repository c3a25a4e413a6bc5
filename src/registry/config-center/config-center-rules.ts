import type { Url } from "../../core/index.js";
import type { NotifyListener, Registry, RegistryLogger } from "../registry.js";
import { CONFIGURATORS_CATEGORY } from "../registry.js";
import { categoryOf, emptyUrl, isEmptyUrl } from "../url-match.js";
import type { ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import { CONFIGURATORS_SUFFIX, parseConfiguratorRule } from "./configurator-rule.js";

/** dubbo-admin's config-center group: `/dubbo/config/dubbo/{key}`. */
const RULES_GROUP = "dubbo";

/** Java's rule key of a service: `interface:version:group`, empty parts kept (`URL.getColonSeparatedKey`). */
function colonSeparatedKey(url: Url): string {
  return `${url.serviceInterface}:${url.get("version") ?? ""}:${url.get("group") ?? ""}`;
}

/**
 * A registry whose subscriptions also carry the override rules dubbo-admin writes into the config
 * center (Java 2.7+'s `/dubbo/config/dubbo/{application}.configurators` and
 * `/dubbo/config/dubbo/{interface:version:group}.configurators`, watched): the `configurators`
 * list a subscriber gets is the registry's own plus those, so one directory applies both.
 */
export class ConfigCenterRules implements Registry {
  readonly url: Url;
  readonly #inner: Registry;
  readonly #zk: ZookeeperRegistry;
  readonly #logger: RegistryLogger;
  readonly #wrapped = new Map<NotifyListener, { listener: NotifyListener; close: () => void }>();

  constructor(inner: Registry, zk: ZookeeperRegistry, logger: RegistryLogger) {
    this.url = inner.url;
    this.#inner = inner;
    this.#zk = zk;
    this.#logger = logger;
  }

  register(url: Url): Promise<void> {
    return this.#inner.register(url);
  }

  unregister(url: Url): Promise<void> {
    return this.#inner.unregister(url);
  }

  lookup(url: Url): Promise<Url[]> {
    return this.#inner.lookup(url);
  }

  isAvailable(): boolean {
    return this.#inner.isAvailable();
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }

  async subscribe(url: Url, listener: NotifyListener): Promise<void> {
    const root = this.#zk.root === "/" ? "" : this.#zk.root;
    const keys = [url.string("application", ""), colonSeparatedKey(url)]
      .filter((k) => k !== "" && !k.startsWith(":"))
      .map((k) => `${root}/config/${RULES_GROUP}/${k}${CONFIGURATORS_SUFFIX}`);
    let own: readonly Url[] = [];
    const center = new Map<string, readonly Url[]>();
    let closed = false;
    const merged = (): Url[] => {
      const all = [...own, ...[...center.values()].flat()];
      return all.length > 0 ? all : [emptyUrl(url, CONFIGURATORS_CATEGORY)];
    };
    const wrapped: NotifyListener = (urls) => {
      const rules = urls.filter((u) => categoryOf(u) === CONFIGURATORS_CATEGORY);
      if (rules.length === 0) return listener(urls);
      own = rules.filter((u) => !isEmptyUrl(u));
      listener([...urls.filter((u) => categoryOf(u) !== CONFIGURATORS_CATEGORY), ...merged()]);
    };
    const read = async (path: string): Promise<void> => {
      if (closed) return;
      const node = await this.#zk.client.getData(path, () => {
        read(path).then(
          () => closed || listener(merged()),
          (error: unknown) => this.#logger.warn(`could not read the rule ${path}`, error),
        );
      });
      if (node === undefined) {
        await this.#zk.client.exists(path, () => void read(path).then(() => closed || listener(merged())));
      }
      try {
        center.set(path, node === undefined ? [] : parseConfiguratorRule(node.data.toString("utf8"), path));
      } catch (error) {
        this.#logger.warn(`ignoring the rule at ${path}`, error);
        center.set(path, []);
      }
    };
    const readAll = () => Promise.all(keys.map(read));
    // Not connected (check=false, an outage): the rules are read when a session starts, and read
    // again on every new session (watches belong to the session that set them).
    if (this.#zk.isAvailable()) await readAll();
    const stopFollowing = this.#zk.onNewSession(() => {
      readAll().then(
        () => closed || listener(merged()),
        (error: unknown) => this.#logger.warn(`could not read the rules of ${url.serviceKey} again`, error),
      );
    });
    this.#wrapped.set(listener, {
      listener: wrapped,
      close: () => {
        closed = true;
        stopFollowing();
      },
    });
    await this.#inner.subscribe(url, wrapped);
    if ([...center.values()].some((rules) => rules.length > 0)) listener(merged());
  }

  async unsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    const wrapped = this.#wrapped.get(listener);
    if (wrapped === undefined) return;
    this.#wrapped.delete(listener);
    wrapped.close();
    await this.#inner.unsubscribe(url, wrapped.listener);
  }
}
