// The npm apache-dubbo-js 3.0.0-rc6 consumer, in its registry mode, finds our providers in a real
// ZooKeeper (root /dubbo, the layout Java Dubbo 2.7 writes) and calls them. dubbo-js parses a
// provider node with `querystring.parse` over the whole decoded URL, so the first parameter is
// swallowed into the key `dubbo://host:port/iface?first`: that is why `version`, `group` and
// `dubbo` must never come first in a node name.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DemoService } from "../../examples/demo-service.js";
import { silentLogger } from "../../src/core/index.js";
import { createDubbo, type DubboApplication } from "../../src/index.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const IFACE = "org.apache.dubbo.demo.DemoService";
const CONSUMER = fileURLToPath(new URL("./fixtures/dubbo-js-registry-consumer.ts", import.meta.url));
const require = createRequire(import.meta.url);
interface DubboJsUrl {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly dubboVersion: string;
  readonly version: string;
  readonly group: string;
}
const DubboUrl = (
  require("apache-dubbo-js/es7/dubbo-url.js") as { default: { from(url: string): DubboJsUrl } }
).default;

const fixture = useZooKeeper("dubbo-ts-djs-zk-");

/** A provider application registering DemoService in ZooKeeper; answers are prefixed by `tag`. */
async function provide(tag: string, version?: string): Promise<{ port: number; app: DubboApplication }> {
  const app = await createDubbo({
    application: { name: `djs-provider-${tag}` },
    env: false,
    logger: silentLogger,
    registry: { address: `zookeeper://${fixture.zk.connectString}`, file: join(fixture.dir, `${tag}.cache`) },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  fixture.cleanups.push(() => app.stop());
  const exported = await app.export(
    DemoService,
    { sayHello: (name: string) => `${tag} Hello ${name}` },
    { scope: "remote", ...(version === undefined ? {} : { version }) },
  );
  const port = exported.urls[0]?.port;
  assert.ok(port !== undefined && port > 0);
  return { port, app };
}

/** Runs the dubbo-js consumer as a child process (killed by pid at its deadline) and reads its reply. */
function dubboJsCall(
  name: string,
  version?: string,
): Promise<{ res?: unknown; err?: string; consumerNode?: boolean }> {
  const args = [
    "--import",
    "tsx",
    CONSUMER,
    fixture.zk.connectString,
    name,
    ...(version === undefined ? [] : [version]),
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 25_000, killSignal: "SIGKILL" }, (error, stdout, stderr) => {
      const line = /^REPLY (.*)$/m.exec(stdout)?.[1];
      const consumerNode = /^CONSUMER-NODE (yes|no)$/m.exec(stdout)?.[1];
      if (line !== undefined)
        resolve({
          ...(JSON.parse(line) as { res?: unknown; err?: string }),
          ...(consumerNode === undefined ? {} : { consumerNode: consumerNode === "yes" }),
        });
      else
        reject(
          new Error(`the dubbo-js consumer printed no REPLY (${error?.message}): ${stderr.slice(-2000)}`),
        );
    });
  });
}

async function providerNodes(): Promise<string[]> {
  return ((await fixture.inspector.getChildren(`/dubbo/${IFACE}/providers`)) ?? []).map((c) =>
    decodeURIComponent(c),
  );
}

describe("dubbo-js consumer discovers our providers in ZooKeeper", () => {
  test("dubbo-js registry - its URL parser reads our provider nodes: host, port, path, dubbo and version", async () => {
    const { port, app } = await provide("parsed", "2.5.0");
    const node = (await providerNodes()).find((n) => n.includes(`:${port}/`));
    assert.ok(node, "our provider node is under /dubbo/<interface>/providers");
    const parsed = DubboUrl.from(node);
    assert.deepEqual(
      { ...parsed, _url: undefined, _query: undefined },
      {
        _url: undefined,
        _query: undefined,
        host: "127.0.0.1",
        port,
        path: IFACE,
        dubboVersion: "2.0.2",
        version: "2.5.0",
        group: "",
      },
    );
    // dubbo-js sends no version when it has none, and then takes any provider: leave only the next ones.
    await app.stop();
    assert.equal((await providerNodes()).length, 0);
  });

  test("dubbo-js registry - finds the provider through ZooKeeper and calls sayHello", async () => {
    await provide("plain");
    const { consumerNode, ...reply } = await dubboJsCall("dubbo-js");
    assert.deepEqual(reply, { res: "plain Hello dubbo-js" });
    // dubbo-js registers itself under the same service's consumers: it read the same root.
    assert.equal(consumerNode, true, "dubbo-js wrote its consumer node under /dubbo/<interface>/consumers");
  });

  test("dubbo-js registry - picks the provider of the requested version out of the registered ones", async () => {
    await provide("v1", "1.0.0");
    // The provider without a version ("plain") is registered too; dubbo-js keeps only
    // the addresses whose node's version is 1.0.0, so the answer proves it read our version key.
    for (let i = 0; i < 2; i++) {
      const { consumerNode: _, ...reply } = await dubboJsCall(`call-${i}`, "1.0.0");
      assert.deepEqual(reply, { res: `v1 Hello call-${i}` });
    }
  });
});
