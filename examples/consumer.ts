// npm run example:consumer -- --url dubbo://127.0.0.1:20880 [--name world] [--registry <url>]
// Calls org.apache.dubbo.demo.DemoService.sayHello on that provider and prints the answer.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDubbo } from "dubbo-ts";
import { DemoService } from "./demo-service.js";
import { readFlags } from "./flags.js";

const flags = readFlags(process.argv.slice(2));
const name = flags.get("name") ?? "world";
const target = flags.get("url");
const registry = flags.get("registry");
if (target === undefined && registry === undefined) {
  console.error(
    "usage: npm run example:consumer -- --url dubbo://127.0.0.1:20880 [--name world]  (or --registry <url>)",
  );
  process.exit(2);
}

const app = await createDubbo({
  application: { name: "demo-consumer" },
  // The registry's provider cache goes to the temp directory, one file per example application.
  ...(registry === undefined
    ? {}
    : { registry: { address: registry, file: join(tmpdir(), "dubbo-ts-example-demo-consumer.cache") } }),
});
try {
  const demo = await app.refer(DemoService, {
    timeoutMs: 3000,
    ...(target === undefined ? {} : { url: target }),
  });
  console.log(await demo.sayHello(name));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await app.stop();
}
