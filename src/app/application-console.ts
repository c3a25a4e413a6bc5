import { Code, type Logger, RpcError, type Url } from "../core/index.js";
import {
  type ConsoleHandler,
  createConsoleHandler,
  openRegistryView,
  type RegistryView,
} from "../qos/index.js";

/** The web console on an application's QoS port, with what it needs from the application. */
export interface ApplicationConsole {
  readonly handler: ConsoleHandler;
  close(): void;
}

/**
 * The console over the application's first ZooKeeper registry, connected on the first request
 * (an application that never opens the page pays nothing), and its own metrics.
 */
export function applicationConsole(
  registryUrls: () => readonly Url[],
  metricsText: () => string,
  logger: Logger,
): ApplicationConsole {
  let view: Promise<RegistryView> | undefined;
  const registry = (): Promise<RegistryView> => {
    if (view !== undefined) return view;
    const urls = registryUrls();
    const zookeeper = urls.find((u) => u.protocol === "zookeeper");
    if (zookeeper === undefined) {
      const have = urls.map((u) => `${u.protocol}://${u.address}`).join(", ") || "none";
      return Promise.reject(
        new RpcError(
          `the console reads a ZooKeeper registry and this application has none (registries: ${have}); run dubbo-ts console --registry zookeeper://host:port instead`,
          Code.FailedPrecondition,
        ),
      );
    }
    view = openRegistryView(zookeeper, logger);
    view.catch(() => (view = undefined));
    return view;
  };
  return {
    handler: createConsoleHandler({ registry, metricsTexts: async () => [metricsText()] }),
    close: () =>
      void view?.then(
        (v) => v.close(),
        () => {},
      ),
  };
}
