// Applications (createDubbo) on a real ZooKeeper for the recovery tests: each one its own registry
// session and cache file, a short registry retry period, and the example DemoService.
import { join } from "node:path";
import { DemoService } from "../../examples/demo-service.js";
import { type AppLogger, createDubbo, type DubboApplication, silentLogger } from "../../src/index.js";

export interface ZooKeeperAppsSettings {
  /** `zookeeper://…` with its `backup=` addresses, read when an application starts. */
  registryAddress(): string;
  /** Where each application keeps its cache file. */
  readonly cacheDir: string;
  /** The logger of the application called `name`; by default its warnings are kept (`warnings`). */
  logger?(name: string): AppLogger;
}

export interface ZooKeeperApps {
  application(name: string, sessionMs: number): Promise<DubboApplication>;
  /** A provider application of DemoService whose answers start with `tag`. */
  provide(tag: string, sessionMs: number): Promise<DubboApplication>;
  stopAll(): Promise<void>;
  /** `<application>: <message>` of every warning logged, with the default logger. */
  readonly warnings: readonly string[];
  /** Whether `name` logged that it gave its ZooKeeper session up for a new one. */
  tookSessionAsLost(name: string): boolean;
}

export function zookeeperApps(settings: ZooKeeperAppsSettings): ZooKeeperApps {
  const apps: DubboApplication[] = [];
  const warnings: string[] = [];
  const logger =
    settings.logger ??
    ((name: string): AppLogger => ({
      ...silentLogger,
      warn: (message) => void warnings.push(`${name}: ${message}`),
    }));
  async function application(name: string, sessionMs: number): Promise<DubboApplication> {
    const app = await createDubbo({
      application: { name },
      env: false,
      logger: logger(name),
      registry: {
        address: settings.registryAddress(),
        file: join(settings.cacheDir, `${name}.cache`),
        sessionMs,
        timeoutMs: 3000,
        parameters: { "retry.period": "200" },
      },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    });
    apps.push(app);
    return app;
  }
  return {
    application,
    async provide(tag, sessionMs) {
      const app = await application(tag, sessionMs);
      await app.export(
        DemoService,
        { sayHello: (name: string) => `${tag} Hello ${name}` },
        { scope: "remote" },
      );
      return app;
    },
    async stopAll() {
      for (const app of apps.splice(0)) await app.stop().catch(() => {});
    },
    warnings,
    tookSessionAsLost: (name) =>
      warnings.some((w) => w.startsWith(`${name}: `) && w.includes("taking session 0x")),
  };
}
