// Registry URLs as users write them: credentials in the address (`zookeeper://user:secret@host:port`)
// are sent as ZooKeeper digest auth, proved against a root whose ACL admits only that user; and
// parameters written in the address (`?session=`) reach the ZooKeeper client.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import zookeeper from "node-zookeeper-client";
import { DemoService } from "../../examples/demo-service.js";
import { fourLetterWord, startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { silentLogger } from "../../src/core/index.js";
import { createDubbo, type DubboApplication } from "../../src/index.js";

const USER = "registry-user";
const SECRET = "s3cret";
const ROOT = "/secured";
const IFACE = "org.apache.dubbo.demo.DemoService";

let zk: ZooKeeperServer;
let dir: string;
const apps: DubboApplication[] = [];
const rawClients: zookeeper.Client[] = [];

before(async () => {
  zk = await startZooKeeper();
  dir = mkdtempSync(join(tmpdir(), "dubbo-ts-zk-auth-"));
});

after(async () => {
  for (const app of apps) await app.stop().catch(() => {});
  for (const client of rawClients) client.close();
  await zk?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw node-zookeeper-client session, authenticated with `digest` when given. */
async function rawClient(digest?: string): Promise<zookeeper.Client> {
  const client = zookeeper.createClient(zk.connectString, { sessionTimeout: 10_000, retries: 0 });
  rawClients.push(client);
  if (digest !== undefined) client.addAuthInfo("digest", Buffer.from(digest));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("raw ZooKeeper client did not connect in 10 s")), 10_000);
    client.once("connected", () => {
      clearTimeout(timer);
      resolve();
    });
    client.connect();
  });
  return client;
}

/** The error code of a raw operation, or 0 when it succeeded. */
function outcome(run: (done: (error: Error | zookeeper.Exception | null) => void) => void): Promise<number> {
  return new Promise((resolve) => {
    run((error) => resolve(error === null ? 0 : ((error as { code?: number }).code ?? -1)));
  });
}

async function application(
  name: string,
  address: string,
  extra: { group?: string; sessionMs?: number } = {},
) {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: silentLogger,
    registry: { address, file: join(dir, `${name}.cache`), ...extra },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  apps.push(app);
  return app;
}

describe("registry URLs with credentials and parameters", () => {
  test("zookeeper auth - user:password in the address is sent as digest auth: registers and discovers under a root only that user may use", async () => {
    // The root admits only USER (digest = user:base64(sha1(user:password))), as ops would lock it.
    const hashed = createHash("sha1").update(`${USER}:${SECRET}`).digest("base64");
    const owner = await rawClient(`${USER}:${SECRET}`);
    const acl = [
      new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id("digest", `${USER}:${hashed}`)),
    ];
    assert.equal(
      await outcome((done) =>
        owner.create(ROOT, Buffer.alloc(0), acl, zookeeper.CreateMode.PERSISTENT, done),
      ),
      0,
    );
    const anonymous = await rawClient();
    const noAuth = zookeeper.Exception.NO_AUTH;
    assert.equal(
      await outcome((done) => anonymous.getChildren(ROOT, done)),
      noAuth,
      "anonymous cannot list it",
    );
    assert.equal(
      await outcome((done) => anonymous.create(`${ROOT}/x`, done)),
      noAuth,
      "anonymous cannot create under it",
    );

    const address = `zookeeper://${USER}:${SECRET}@${zk.connectString}`;
    const provider = await application("auth-provider", address, { group: "secured" });
    await provider.export(
      DemoService,
      { sayHello: (name: string) => `secured Hello ${name}` },
      { scope: "remote" },
    );
    const services = await new Promise<string[]>((resolve, reject) =>
      owner.getChildren(ROOT, (error, children) => (error ? reject(error) : resolve(children))),
    );
    assert.deepEqual(
      services.sort(),
      ["auth-provider", "mapping", IFACE].sort(),
      "the provider created its service (and Dubbo 3's instance and interface-to-application mapping) under the locked root",
    );

    const consumer = await application("auth-consumer", address, { group: "secured" });
    const demo = await consumer.refer(DemoService, { timeoutMs: 3000 });
    assert.equal(await demo.sayHello("auth"), "secured Hello auth");

    // Without the credentials the same export is refused by ZooKeeper (check=true makes that an error).
    const stranger = await application("auth-stranger", `zookeeper://${zk.connectString}`, {
      group: "secured",
    });
    await assert.rejects(
      stranger.export(DemoService, { sayHello: () => "never" }, { scope: "remote" }),
      /failed to register .*NO_AUTH/,
    );
  });

  test("zookeeper auth - a parameter written in the registry address (session=) reaches the ZooKeeper client", async () => {
    const app = await application("session-in-address", `zookeeper://${zk.connectString}?session=4000`);
    await app.export(DemoService, { sayHello: (name: string) => name }, { scope: "remote" });
    // `cons` lists every connection with its negotiated session timeout (`to=`).
    const timeouts = [...(await fourLetterWord(zk.port, "cons")).matchAll(/\bto=(\d+)/g)].map((m) => m[1]);
    assert.ok(timeouts.includes("4000"), `no session of 4000 ms; sessions: ${timeouts.join(", ")}`);
  });
});
