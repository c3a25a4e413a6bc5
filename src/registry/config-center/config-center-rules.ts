import type { Url } from "../../core/index.js";
import type { NotifyListener, Registry, RegistryLogger } from "../registry.js";
import { CATEGORY_KEY, CONFIGURATORS_CATEGORY, PROVIDERS_CATEGORY, ROUTERS_CATEGORY } from "../registry.js";
import { categoryOf, emptyUrl, isEmptyUrl } from "../url-match.js";
import type { ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import { CONFIGURATORS_SUFFIX, parseConfiguratorRule } from "./configurator-rule.js";
import {
  CONDITION_ROUTER_SUFFIX,
  conditionRule,
  RULE_ROUTER_PRIORITY,
  SCRIPT_ROUTER_SUFFIX,
  scriptRule,
  TAG_ROUTER_SUFFIX,
  tagRule,
} from "./router-rules.js";
import { RuleNode, type RuleParser } from "./rule-node.js";

/** dubbo-admin's config-center group: `/dubbo/config/dubbo/{key}`. */
const RULES_GROUP = "dubbo";

/** Java's rule key of a service: `interface:version:group`, empty parts kept (`URL.getColonSeparatedKey`). */
function colonSeparatedKey(url: Url): string {
  return `${url.serviceInterface}:${url.get("version") ?? ""}:${url.get("group") ?? ""}`;
}

/** One watched node of a subscription: the key (without suffix) and how its text becomes URLs. */
interface RuleSpec {
  readonly key: string;
  readonly suffix: string;
  /** `configurators` or `routers`: the list its URLs join. */
  readonly category: string;
  readonly parse: RuleParser;
}

/**
 * A registry whose subscriptions also carry the rules dubbo-admin writes into the config center,
 * under `/dubbo/config/dubbo/{key}{suffix}`, watched, as a Java 3.3 application reads them:
 * - `configurators` (both sides): `{application}.configurators` and `{interface:version:group}.configurators`;
 * - `routers` (consumers): `{interface:version:group}.condition-router`, `{application}.condition-router`
 *   and, once the providers' application is known (the first provider's `application`),
 *   `{provider application}.condition-router` (when it is another application), `.tag-router`
 *   and `.script-router`.
 * The lists a subscriber gets are the registry's own plus the config center's, so one directory
 * applies both; router rules become `condition-router://`, `tag://` and `script-router://` URLs.
 */
export class ConfigCenterRules implements Registry {
  readonly url: Url;
  readonly registerMode: Registry["registerMode"];
  readonly #inner: Registry;
  readonly #zk: ZookeeperRegistry;
  readonly #logger: RegistryLogger;
  readonly #wrapped = new Map<NotifyListener, { listener: NotifyListener; close: () => void }>();
  /** Numbers subscriptions, naming their pending reads apart. */
  #subscriptions = 0;

  constructor(inner: Registry, zk: ZookeeperRegistry, logger: RegistryLogger) {
    this.url = inner.url;
    this.registerMode = inner.registerMode;
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
    const categories = url.string(CATEGORY_KEY, PROVIDERS_CATEGORY).split(",");
    const ruleCategories = [CONFIGURATORS_CATEGORY, ROUTERS_CATEGORY].filter((c) => categories.includes(c));
    const application = url.string("application", "");
    const own = new Map<string, readonly Url[]>();
    const fixed = this.#nodes(this.#fixedSpecs(url, ruleCategories), () => emit());
    let following: { application: string; nodes: RuleNode[] } | undefined;
    let closed = false;

    const merged = (): Url[] =>
      ruleCategories.flatMap((category) => {
        const center = [...fixed, ...(following?.nodes ?? [])].filter((n) => n.category === category);
        const all = [...(own.get(category) ?? []), ...center.flatMap((n) => n.urls)];
        return all.length > 0 ? all : [emptyUrl(url, category)];
      });
    // Lists go out once the registry's own first lists went out (before that, with them).
    let delivering = false;
    const emit = (): void => {
      if (!closed && delivering) listener(merged());
    };
    const id = ++this.#subscriptions;
    /** Java's tag, script and provider-application condition routers follow the providers' application. */
    const follow = (providerApp: string | undefined): void => {
      if (!ruleCategories.includes(ROUTERS_CATEGORY) || providerApp === undefined || providerApp === "")
        return;
      if (providerApp === following?.application) return;
      for (const node of following?.nodes ?? []) node.close();
      const nodes = this.#nodes(this.#providerSpecs(url, providerApp, application), emit);
      following = { application: providerApp, nodes };
      this.#readAll(`read the rules of ${providerApp} for subscription ${id}`, nodes, emit).catch(
        (error: unknown) =>
          this.#logger.warn(
            `could not read the rules of application ${providerApp} for ${url.serviceKey}`,
            error,
          ),
      );
    };
    const wrapped: NotifyListener = (urls) => {
      follow(urls.find((u) => categoryOf(u) === PROVIDERS_CATEGORY && !isEmptyUrl(u))?.get("application"));
      const carried = ruleCategories.filter((c) => urls.some((u) => categoryOf(u) === c));
      for (const category of carried) {
        own.set(
          category,
          urls.filter((u) => categoryOf(u) === category && !isEmptyUrl(u)),
        );
      }
      const others = urls.filter((u) => !carried.includes(categoryOf(u)));
      listener(carried.length === 0 ? others : [...others, ...merged()]);
    };

    // Not connected (check=false, an outage): the registry's retry reads the rules once it is back;
    // they are read again on every new session (watches belong to the session that set them).
    await this.#readAll(`read the rules of subscription ${id}`, fixed, emit);
    const stopFollowing = this.#zk.onNewSession(() => {
      this.#readAll(
        `read the rules of subscription ${id}`,
        [...fixed, ...(following?.nodes ?? [])],
        emit,
      ).catch((error: unknown) =>
        this.#logger.warn(`could not read the rules of ${url.serviceKey} again`, error),
      );
    });
    this.#wrapped.set(listener, {
      listener: wrapped,
      close: () => {
        closed = true;
        stopFollowing();
        for (const node of [...fixed, ...(following?.nodes ?? [])]) node.close();
      },
    });
    await this.#inner.subscribe(url, wrapped);
    delivering = true;
    if ([...fixed, ...(following?.nodes ?? [])].some((n) => n.urls.length > 0)) emit();
  }

  /** The nodes whose keys the subscription itself names: its application and its service. */
  #fixedSpecs(url: Url, ruleCategories: readonly string[]): RuleSpec[] {
    const application = url.string("application", "");
    const serviceKey = colonSeparatedKey(url);
    const condition = (priority: number) => conditionRule(url.serviceInterface, priority, this.#logger);
    return [
      ...(ruleCategories.includes(CONFIGURATORS_CATEGORY)
        ? [
            {
              key: application,
              suffix: CONFIGURATORS_SUFFIX,
              category: CONFIGURATORS_CATEGORY,
              parse: parseConfiguratorRule,
            },
            {
              key: serviceKey,
              suffix: CONFIGURATORS_SUFFIX,
              category: CONFIGURATORS_CATEGORY,
              parse: parseConfiguratorRule,
            },
          ]
        : []),
      ...(ruleCategories.includes(ROUTERS_CATEGORY)
        ? [
            {
              key: serviceKey,
              suffix: CONDITION_ROUTER_SUFFIX,
              category: ROUTERS_CATEGORY,
              parse: condition(RULE_ROUTER_PRIORITY.serviceCondition),
            },
            {
              key: application,
              suffix: CONDITION_ROUTER_SUFFIX,
              category: ROUTERS_CATEGORY,
              parse: condition(RULE_ROUTER_PRIORITY.consumerAppCondition),
            },
          ]
        : []),
    ];
  }

  /** The nodes keyed by the providers' application (a consumer's own application reads no second condition rule). */
  #providerSpecs(url: Url, providerApp: string, application: string): RuleSpec[] {
    const iface = url.serviceInterface;
    const priority = RULE_ROUTER_PRIORITY.providerAppCondition;
    return [
      ...(providerApp === application
        ? []
        : [
            {
              key: providerApp,
              suffix: CONDITION_ROUTER_SUFFIX,
              category: ROUTERS_CATEGORY,
              parse: conditionRule(iface, priority, this.#logger),
            },
          ]),
      { key: providerApp, suffix: TAG_ROUTER_SUFFIX, category: ROUTERS_CATEGORY, parse: tagRule(iface) },
      {
        key: providerApp,
        suffix: SCRIPT_ROUTER_SUFFIX,
        category: ROUTERS_CATEGORY,
        parse: scriptRule(iface),
      },
    ];
  }

  #nodes(specs: readonly RuleSpec[], onChange: () => void): RuleNode[] {
    const root = this.#zk.root === "/" ? "" : this.#zk.root;
    return specs
      .filter((s) => s.key !== "" && !s.key.startsWith(":"))
      .map(
        (s) =>
          new RuleNode(
            `${root}/config/${RULES_GROUP}/${s.key}${s.suffix}`,
            s.category,
            s.parse,
            () => this.#zk.client,
            onChange,
            this.#logger,
          ),
      );
  }

  /** Reads the nodes, then `done`; while ZooKeeper is unreachable the registry's retry does it later. */
  #readAll(name: string, nodes: readonly RuleNode[], done: () => void): Promise<void> {
    return this.#zk.runOrRetry(name, async () => {
      await Promise.all(nodes.map((n) => n.read()));
      done();
    });
  }

  async unsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    const wrapped = this.#wrapped.get(listener);
    if (wrapped === undefined) return;
    this.#wrapped.delete(listener);
    wrapped.close();
    await this.#inner.unsubscribe(url, wrapped.listener);
  }
}
