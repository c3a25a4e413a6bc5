// npm start: the whole picture on one machine, nothing to install.
// An embedded dubbo:// registry, two providers registered in it, a consumer that discovers them and
// spreads calls over both (round robin), one provider stopped gracefully mid-run while the calls go
// on, then an attachment round trip, $echo and a generic $invoke.

import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createDubbo,
  type DubboApplication,
  getRpcContext,
  runWithRpcContext,
  startEmbeddedRegistry,
} from "dubbo-ts";
import { DemoService } from "./demo-service.js";

const registry = await startEmbeddedRegistry({ host: "127.0.0.1", port: 0 });
const registryAddress = registry.url.toString();
console.log(`registry   ${registryAddress}`);

/** The registry's cache of providers: one file per application in the temp directory, as the
 * registry's port (part of Java's default name in ~/.dubbo) changes with every run. */
const cacheFile = (application: string) => join(tmpdir(), `dubbo-ts-demo-${application}.cache`);

async function startProvider(name: string): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    registry: { address: registryAddress, file: cacheFile(name) },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    env: false,
  });
  const exported = await app.export(
    DemoService,
    {
      sayHello(who) {
        getRpcContext().setResponseAttachment("served-by", name);
        return `Hello ${who}, from ${name} (trace ${String(getRpcContext().getAttachment("trace-id") ?? "-")})`;
      },
    },
    { scope: "remote" },
  );
  console.log(`provider   ${name} serving on ${exported.urls[0]?.address}`);
  return app;
}

const providerA = await startProvider("provider-a");
const providerB = await startProvider("provider-b");
const consumer = await createDubbo({
  application: { name: "demo-consumer" },
  registry: { address: registryAddress, file: cacheFile("demo-consumer") },
  consumer: { addressWaitMs: 3000 },
  env: false,
});

let failures = 0;
try {
  const demo = await consumer.refer(DemoService, { loadbalance: "roundrobin", timeoutMs: 2000 });
  const servedBy = new Map<string, number>();
  for (let call = 1; call <= 12; call++) {
    if (call === 7) {
      console.log(
        "           … stopping provider-b gracefully (unregister, READONLY, drain) while calls go on",
      );
      await providerB.stop();
    }
    try {
      const answer = await runWithRpcContext(async (context) => {
        context.setAttachment("trace-id", `t-${call}`);
        const text = await demo.sayHello(`call ${call}`);
        const server = String(context.getReceivedAttachment("served-by"));
        servedBy.set(server, (servedBy.get(server) ?? 0) + 1);
        return text;
      });
      console.log(`call ${String(call).padStart(2)}    ${answer}`);
    } catch (error) {
      failures++;
      console.log(`call ${String(call).padStart(2)}    FAILED ${(error as Error).message}`);
    }
  }
  console.log(
    `served     ${[...servedBy].map(([name, n]) => `${name}: ${n}`).join(", ")}; failed: ${failures}`,
  );
  console.log(`$echo      ${await demo.$echo("ping")}`);
  const generic = await consumer.referGeneric(DemoService.interfaceName, { timeoutMs: 2000 });
  console.log(
    `$invoke    ${String(await generic.$invoke("sayHello", ["java.lang.String"], ["a generic caller"]))}`,
  );
} finally {
  await consumer.stop();
  await providerA.stop();
  await registry.stop();
}
process.exitCode = failures === 0 ? 0 : 1;
