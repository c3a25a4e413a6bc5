/**
 * A plugin: a named bundle of extensions that registers itself into one application's extension
 * points (`Points`, the part of the application's extensions it needs). Every built-in (the dubbo
 * and injvm protocols, the registries, the balancers, …) is one, and a third-party plugin is
 * written the same way. `register` runs once per application, before its configuration is checked,
 * and must stay cheap: an implementation with heavy modules or npm dependencies registers a
 * factory that `import()`s them on first use, so an application that never names it never loads them.
 */
export interface ExtensionPlugin<Points> {
  /** Names the plugin in errors. */
  readonly name: string;
  register(points: Points): void;
}
