import { DEFAULT_REGISTER, type Url } from "../../core/index.js";
import { applyConfigurators, type Configurator, toConfigurators } from "../directory/configurator.js";
import type { NotifyListener, Registry, RegistryLogger } from "../registry.js";
import { CONFIGURATORS_CATEGORY } from "../registry.js";
import { categoryOf, isMatch } from "../url-match.js";
import { overrideSubscribeUrl, urlToRegistry } from "./registry-urls.js";

/**
 * One exported service in one registry: its registration, and its subscription to the override
 * rules (`override://…?category=configurators`) that dubbo-admin writes for it.
 *
 * When the rules change, the rules are applied to the served URL (provider-side matching: rules for
 * this `host:port` or for `0.0.0.0`, not `side=consumer` ones) and, if the result differs, the new
 * URL is registered and then the old one unregistered — in that order, so consumers never see the
 * provider vanish. Consumers read `disabled`, `weight`, `timeout`, … from the registered URL.
 * Unlike Java, the local export is not re-created: settings only the provider's server reads
 * (`executes`, `token`, `threads`) take effect at the next export.
 */
export class ProviderRegistration {
  readonly registry: Registry;
  /** What the served URL registers as, before any rule. */
  readonly baseUrl: Url;
  readonly subscribeUrl: Url;
  readonly #shouldRegister: boolean;
  readonly #logger: RegistryLogger;
  readonly #listener: NotifyListener = (urls) => this.#onRules(urls);
  #configurators: readonly Configurator[] = [];
  #registered: Url | undefined;
  #chain: Promise<void> = Promise.resolve();
  #stopped = false;
  #offline = false;

  constructor(registry: Registry, served: Url, logger: RegistryLogger) {
    this.registry = registry;
    this.baseUrl = urlToRegistry(served);
    this.subscribeUrl = overrideSubscribeUrl(this.baseUrl);
    this.#shouldRegister =
      registry.url.boolean("register", DEFAULT_REGISTER) && served.boolean("register", DEFAULT_REGISTER);
    this.#logger = logger;
  }

  /** The URL registered now (after rules), or undefined when `register=false`. */
  get registeredUrl(): Url | undefined {
    return this.#registered;
  }

  /** Subscribes to the rules (their first lists arrive during the call), then registers. */
  async start(): Promise<void> {
    await this.registry.subscribe(this.subscribeUrl, this.#listener);
    await this.#enqueue();
  }

  /** Stops following rules and unregisters. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await this.registry.unsubscribe(this.subscribeUrl, this.#listener).catch((error: unknown) => {
      this.#logger.warn(`could not unsubscribe the override rules of ${this.baseUrl.serviceKey}`, error);
    });
    await this.#chain;
    const registered = this.#registered;
    this.#registered = undefined;
    if (registered !== undefined) await this.registry.unregister(registered);
  }

  /**
   * QoS `offline` / `online`: unregisters while still serving (consumers stop choosing this
   * provider), or registers again with the current rules applied.
   */
  async setOnline(online: boolean): Promise<void> {
    this.#offline = !online;
    await this.#enqueue();
  }

  #onRules(urls: readonly Url[]): void {
    if (this.#stopped) return;
    const rules = urls.filter(
      (u) => categoryOf(u) === CONFIGURATORS_CATEGORY && isMatch(this.subscribeUrl, u),
    );
    const configurators = urls.some((u) => categoryOf(u) === CONFIGURATORS_CATEGORY)
      ? toConfigurators(rules)
      : this.#configurators;
    this.#configurators = configurators;
    this.#enqueue().catch((error: unknown) => {
      this.#logger.warn(
        `could not re-register ${this.baseUrl.serviceKey} after an override rule changed`,
        error,
      );
    });
  }

  /** Serializes re-registrations so two quick rule changes end with the latest URL registered. */
  #enqueue(): Promise<void> {
    const run = this.#chain.then(() => this.#sync());
    this.#chain = run.catch(() => {});
    return run;
  }

  async #sync(): Promise<void> {
    if (this.#stopped || !this.#shouldRegister) return;
    if (this.#offline) {
      const registered = this.#registered;
      this.#registered = undefined;
      if (registered !== undefined) await this.registry.unregister(registered);
      return;
    }
    const wanted = applyConfigurators(this.baseUrl, this.#configurators, this.baseUrl.host);
    const previous = this.#registered;
    if (previous?.equals(wanted)) return;
    await this.registry.register(wanted);
    this.#registered = wanted;
    if (previous !== undefined) await this.registry.unregister(previous);
  }
}
