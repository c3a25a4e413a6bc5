/**
 * The parameter names of URLs that have the same names in the same order (providers of one
 * service registered by one framework version): each name's position, shared by all of them.
 */
export class ParamShape {
  readonly names: readonly string[];
  readonly #positions: ReadonlyMap<string, number>;

  constructor(names: readonly string[]) {
    this.names = names;
    this.#positions = new Map(names.map((name, i) => [name, i]));
  }

  positionOf(name: string): number | undefined {
    return this.#positions.get(name);
  }
}

/**
 * A decoded URL's parameters as its shape and one array of values: a map per URL costs about
 * 600 bytes for 15 parameters, this about 140, and 10 000 providers of one service share one
 * shape. Read-only; iteration follows the names' order, as a Map's does.
 */
export class ShapedParams implements ReadonlyMap<string, string> {
  readonly #shape: ParamShape;
  readonly #values: readonly string[];

  constructor(shape: ParamShape, values: readonly string[]) {
    this.#shape = shape;
    this.#values = values;
  }

  get(key: string): string | undefined {
    const at = this.#shape.positionOf(key);
    return at === undefined ? undefined : this.#values[at];
  }

  has(key: string): boolean {
    return this.#shape.positionOf(key) !== undefined;
  }

  get size(): number {
    return this.#values.length;
  }

  get names(): readonly string[] {
    return this.#shape.names;
  }

  get shape(): ParamShape {
    return this.#shape;
  }

  *entries(): MapIterator<[string, string]> {
    const { names } = this.#shape;
    for (let i = 0; i < names.length; i++) yield [names[i]!, this.#values[i]!];
  }

  keys(): MapIterator<string> {
    return this.#shape.names.values();
  }

  values(): MapIterator<string> {
    return this.#values.values();
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void): void {
    const { names } = this.#shape;
    for (let i = 0; i < names.length; i++) callback(this.#values[i]!, names[i]!, this);
  }
}

/**
 * The names of `params` as one array shared by every URL of its shape, or undefined when it is
 * not shaped: what lets a caller that keys something on the names do it once per shape.
 */
export function sharedParamNames(params: ReadonlyMap<string, string>): readonly string[] | undefined {
  return params instanceof ShapedParams ? params.names : undefined;
}
