import type { Protocol } from "../core/index.js";

/**
 * A protocol whose modules load by dynamic import on its first export or refer, so an application
 * that never uses it never loads them, nor the packages they import (`@bufbuild/protobuf` for tri).
 * Destroying one that was never used loads nothing.
 */
export function lazyProtocol(name: string, defaultPort: number, load: () => Promise<Protocol>): Protocol {
  let loaded: Promise<Protocol> | undefined;
  const protocol = (): Promise<Protocol> => {
    loaded ??= load();
    return loaded;
  };
  return {
    name,
    defaultPort,
    export: async (invoker) => (await protocol()).export(invoker),
    refer: async (url) => (await protocol()).refer(url),
    async destroy() {
      if (loaded !== undefined) await (await loaded).destroy();
    },
  };
}
