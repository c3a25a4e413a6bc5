// An IDL service whose proto sets `java_package` (greeter_java_package.proto): its path is the
// proto's `greet.v1.Greeter`, its Java interface `dubbo.tri.test.Greeter`. Our Triple provider
// answers both names, as Java's TriplePathResolver maps both to the service, and its invocation
// names the service by its interface over tri as over injvm and on the consumer.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { FilterExtension } from "../../src/extension.js";
import {
  createDubbo,
  type DubboApplication,
  defineProtoService,
  type ProtoImplementation,
  silentLogger,
} from "../../src/index.js";
import { Greeter as JavaPackageGreeter } from "./gen/greeter_java_package_pb.js";
import { greeterImplementation } from "./greeter-peers.js";

const INTERFACE = "dubbo.tri.test.Greeter";
const PATH = "greet.v1.Greeter";
const GreeterService = defineProtoService(JavaPackageGreeter);
// greeter_java_package.proto's messages are greeter.proto's, under another proto package.
const implementation = greeterImplementation({
  oursEndings: [],
  produced: 0,
}) as unknown as ProtoImplementation<typeof JavaPackageGreeter>;

const apps: DubboApplication[] = [];
after(async () => {
  for (const app of apps.splice(0).reverse()) await app.stop();
});

/** Records `side service/method` of every call its side's filter chain sees. */
function recorder(side: "consumer" | "provider", seen: string[]): FilterExtension {
  return {
    activate: { side },
    filter: (next) => (inv) => {
      seen.push(`${side} ${inv.service}/${inv.method}`);
      return next(inv);
    },
  };
}

/** An application with a tri protocol on a free loopback port and a recording filter per side. */
async function application(name: string, seen: string[]): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: silentLogger,
    protocol: { name: "tri", host: "127.0.0.1", port: 0 },
  });
  apps.push(app);
  app.extensions.filter.register("record-consumer", recorder("consumer", seen));
  app.extensions.filter.register("record-provider", recorder("provider", seen));
  return app;
}

describe("an IDL service whose proto sets java_package", () => {
  test("java_package - the provider answers the proto path and the Java interface's name, group and version kept", async () => {
    const provider = await application("jp-paths-provider", []);
    const exported = await provider.export(GreeterService, implementation, {
      scope: "remote",
      version: "2.0.0",
      group: "g1",
    });
    const { address } = exported.urls[0]!;
    assert.equal(exported.urls[0]!.path, PATH);
    const consumer = await application("jp-paths-consumer", []);
    for (const path of [PATH, INTERFACE]) {
      const greeter = await consumer.refer(GreeterService, {
        url: `tri://${address}/${path}`,
        version: "2.0.0",
        group: "g1",
        timeoutMs: 3000,
      });
      assert.equal((await greeter.sayHello({ name: path })).message, `hello ${path} from nobody`);
    }
    // The interface's name under another version is no more that service than the path is.
    const other = await consumer.refer(GreeterService, {
      url: `tri://${address}/${INTERFACE}`,
      version: "3.0.0",
      group: "g1",
      timeoutMs: 3000,
    });
    await assert.rejects(other.sayHello({ name: "x" }), /no service "g1\/dubbo\.tri\.test\.Greeter:3\.0\.0"/);
  });

  test("java_package - the provider's invocation names the interface over tri as over injvm and on the consumer", async () => {
    const seen: string[] = [];
    const app = await application("jp-names", seen);
    const exported = await app.export(GreeterService, implementation);
    const { address } = exported.urls[0]!;
    const remote = await app.refer(GreeterService, { url: `tri://${address}`, timeoutMs: 3000 });
    await remote.sayHello({ name: "tri" });
    const local = await app.refer(GreeterService, { scope: "local", timeoutMs: 3000 });
    await local.sayHello({ name: "injvm" });
    assert.deepEqual(seen, [
      `consumer ${INTERFACE}/SayHello`,
      `provider ${INTERFACE}/SayHello`,
      `consumer ${INTERFACE}/SayHello`,
      `provider ${INTERFACE}/SayHello`,
    ]);
  });
});
