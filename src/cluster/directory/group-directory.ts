import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { Directory, ExclusionReason } from "../contracts.js";

/** The `group` a provider registered (Java groups by `getParameter("group", "")`). */
export function groupOf(invoker: Invoker): string {
  return invoker.url.get("group") ?? "";
}

/**
 * One group of a multi-group reference, as a live view of the reference's directory: the
 * providers of that group, routers applied by the parent on every `list`. A group's own cluster
 * invoker (Java's RegistryDirectory builds one per group) runs over it, so its retries re-list
 * the group's current providers. The parent owns the providers: destroying the view frees nothing.
 */
export class GroupDirectory implements Directory {
  readonly url: Url;
  readonly group: string;
  readonly #parent: Directory;

  constructor(parent: Directory, group: string) {
    this.#parent = parent;
    this.group = group;
    this.url = group === "" ? parent.url.withoutParams("group") : parent.url.withParams({ group });
  }

  list(inv: Invocation): readonly Invoker[] {
    return this.#parent.list(inv).filter((i) => groupOf(i) === this.group);
  }

  all(): readonly Invoker[] {
    return this.#parent.all().filter((i) => groupOf(i) === this.group);
  }

  excluded(): ReadonlyMap<string, ExclusionReason> {
    return this.#parent.excluded();
  }

  explain(inv: Invocation): ReadonlyMap<string, ExclusionReason> {
    return this.#parent.explain?.(inv) ?? this.#parent.excluded();
  }

  isAvailable(): boolean {
    return this.all().some((i) => i.isAvailable());
  }

  async destroy(): Promise<void> {}
}
