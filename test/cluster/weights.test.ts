// End to end over real sockets: `weight` on direct provider addresses steers `random`. Java's
// point-to-point reference ramps a weight up only from the provider's own start time
// (`remote.timestamp`, which an address typed by the user does not carry), so weights 300:100 split
// the calls 3:1 from the first call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { silentLogger } from "../../src/core/index.js";
import { createDubbo, type DubboApplication } from "../../src/index.js";
import { ClusterService } from "./fixtures/cluster-service.js";
import { seededRandom } from "./load.js";

const CALLS = 400;
const quiet = silentLogger;

async function startProvider(id: string, apps: DubboApplication[]): Promise<number> {
  const app = await createDubbo({
    application: { name: id },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    env: false,
    logger: quiet,
  });
  apps.push(app);
  const answer = async () => id;
  const exported = await app.export(
    ClusterService,
    { whoami: answer, whoamiToo: answer },
    { scope: "remote" },
  );
  return exported.urls[0]!.port;
}

describe("cluster weights over real sockets", () => {
  it("random - direct-url weights 300:100 split the calls about 3:1 from the consumer's first call", async () => {
    const apps: DubboApplication[] = [];
    try {
      const heavy = await startProvider("heavy", apps);
      const light = await startProvider("light", apps);
      const consumer = await createDubbo({
        application: { name: "weights-consumer" },
        env: false,
        random: seededRandom(4_242),
        logger: quiet,
      });
      apps.push(consumer);
      const stub = await consumer.refer(ClusterService, {
        url: `dubbo://127.0.0.1:${heavy}?weight=300;dubbo://127.0.0.1:${light}?weight=100`,
        loadbalance: "random",
      });
      let heavyCalls = 0;
      for (let i = 0; i < CALLS; i++) if ((await stub.whoami("x")) === "heavy") heavyCalls++;
      // Expected 75 % (standard deviation 2.2 % over 400 calls); equal weights would give 50 %.
      const share = heavyCalls / CALLS;
      assert.ok(
        share > 0.65 && share < 0.85,
        `heavy (weight 300) served ${(share * 100).toFixed(1)} % of the calls, expected about 75 %`,
      );
    } finally {
      for (const app of apps.reverse()) await app.stop();
    }
  });
});
