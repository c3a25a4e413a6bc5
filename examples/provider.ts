// npm run example:provider -- --port 20880 [--host 127.0.0.1] [--registry <url>]
// Exports org.apache.dubbo.demo.DemoService over the dubbo protocol, prints READY <port>, and
// stops gracefully on SIGTERM/SIGINT by the application's shutdown hook (unregister, READONLY to
// consumers, in-flight calls drained), then ends by that signal as Node would.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDubbo } from "dubbo-ts";
import { DemoService } from "./demo-service.js";
import { readFlags } from "./flags.js";

const flags = readFlags(process.argv.slice(2));
const port = Number(flags.get("port") ?? "20880");
const host = flags.get("host") ?? "127.0.0.1";
const registry = flags.get("registry");
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number (0-65535), got ${flags.get("port")}`);
  process.exit(2);
}

const name = flags.get("name") ?? "demo-provider";
const app = await createDubbo({
  application: { name },
  protocol: { name: "dubbo", host, port },
  // The registry's provider cache goes to the temp directory, one file per example application.
  ...(registry === undefined
    ? {}
    : { registry: { address: registry, file: join(tmpdir(), `dubbo-ts-example-${name}.cache`) } }),
});
const exported = await app.export(
  DemoService,
  {
    sayHello(name) {
      return `Hello ${name}`;
    },
  },
  { scope: "remote" },
);
console.log(`READY ${exported.urls[0]?.port ?? port}`);
