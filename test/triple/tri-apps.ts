// Applications of the Triple tests: providers serving over tri on a free loopback port, consumers
// without a protocol of their own; every one is stopped by `stopAll`.
import { createDubbo, type DubboApplication, silentLogger } from "../../src/index.js";

export interface TriApps {
  /** A provider application serving over tri on 127.0.0.1 and a free port (a QoS port with `qosPort: 0`). */
  provider(
    name: string,
    protocol?: { readonly payloadBytes?: number; readonly threads?: number; readonly queues?: number },
    application?: { readonly qosPort?: number },
  ): Promise<DubboApplication>;
  consumer(name: string): Promise<DubboApplication>;
  stopAll(): Promise<void>;
}

export function triApps(): TriApps {
  const apps: DubboApplication[] = [];
  const started = (app: DubboApplication): DubboApplication => {
    apps.push(app);
    return app;
  };
  return {
    async provider(name, protocol = {}, application = {}) {
      return started(
        await createDubbo({
          application: { name, ...application },
          env: false,
          logger: silentLogger,
          protocol: { name: "tri", host: "127.0.0.1", port: 0, ...protocol },
        }),
      );
    },
    async consumer(name) {
      return started(await createDubbo({ application: { name }, env: false, logger: silentLogger }));
    },
    async stopAll() {
      for (const app of apps.splice(0).reverse()) await app.stop();
    },
  };
}
