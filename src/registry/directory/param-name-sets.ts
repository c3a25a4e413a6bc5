import { sharedParamNames } from "../../core/index.js";

interface NameNode {
  readonly next: Map<string, NameNode>;
  /** The names up to here joined, once some URL's names end here. */
  id: string | undefined;
}

/**
 * One shared string per distinct sequence of parameter names (providers of one service share a
 * few), found by walking the names through a tree of the sequences seen: a lookup builds no
 * string, where joining 15 names per provider did for each of 10 000.
 */
export class ParamNameSets {
  readonly #root: NameNode = { next: new Map(), id: undefined };
  /** The id of each shape's shared names (see `sharedParamNames`): one lookup, not one per name. */
  readonly #byShape = new WeakMap<readonly string[], string>();

  idOf(params: ReadonlyMap<string, string>): string {
    const names = sharedParamNames(params);
    if (names === undefined) return this.#walk(params);
    let id = this.#byShape.get(names);
    if (id === undefined) {
      id = this.#walk(params);
      this.#byShape.set(names, id);
    }
    return id;
  }

  #walk(params: ReadonlyMap<string, string>): string {
    let node = this.#root;
    for (const name of params.keys()) {
      let child = node.next.get(name);
      if (child === undefined) {
        child = { next: new Map(), id: undefined };
        node.next.set(name, child);
      }
      node = child;
    }
    node.id ??= [...params.keys()].join("&");
    return node.id;
  }
}
