// Echo and token are ordinary provider filters (Java's EchoFilter and TokenFilter), not protocol
// code: the same application answers `$echo` and checks the export's `token` over dubbo and tri.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  Code,
  createDubbo,
  type DubboApplication,
  defineService,
  java,
  RpcError,
  silentLogger,
} from "../../src/index.js";

const Vault = defineService("org.example.filters.Vault", {
  open: { args: [java.String], returns: java.String },
});

const apps: DubboApplication[] = [];
after(async () => {
  for (const app of apps.splice(0).reverse()) await app.stop();
});

async function start(name: string, protocol?: "dubbo" | "tri"): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: silentLogger,
    ...(protocol === undefined ? {} : { protocol: { name: protocol, host: "127.0.0.1", port: 0 } }),
  });
  apps.push(app);
  return app;
}

for (const protocol of ["dubbo", "tri"] as const) {
  describe(`echo and token filters over ${protocol}`, () => {
    test(`${protocol} - a call without the export's token is refused as Java's TokenFilter does; $echo needs none`, async () => {
      const provider = await start(`vault-${protocol}`, protocol);
      const exported = await provider.export(
        Vault,
        { open: async (who) => `opened for ${who}` },
        {
          scope: "remote",
          token: "s3cret",
        },
      );
      const served = exported.urls[0]!;
      assert.equal(served.get("token"), "s3cret");
      const consumer = await start(`thief-${protocol}`);
      const direct = `${protocol}://${served.address}/${Vault.interfaceName}`;
      const without = await consumer.refer(Vault, { url: direct, retries: 0 });
      await assert.rejects(
        without.open("mallory"),
        (e: unknown) =>
          e instanceof RpcError &&
          // Over dubbo a filter's failure travels as status 70 (SERVICE_ERROR) with its message, as in Java.
          (protocol === "dubbo" || e.code === Code.PermissionDenied) &&
          /Invalid token! Forbid invoke remote service org\.example\.filters\.Vault method open\(\)/.test(
            e.message,
          ) &&
          /consumer incorrect token is undefined/.test(e.message),
      );
      assert.equal(await without.$echo(7), 7, "the echo filter runs before the token filter");
      // A consumer that found the provider in a registry sends the URL's token (here given directly).
      const withToken = await consumer.refer(Vault, { url: served.toString(), retries: 0 });
      assert.equal(await withToken.open("alice"), "opened for alice");
    });
  });
}

test("injvm - an in-process reference passes the export's token, as Java's InjvmInvoker does", async () => {
  const app = await start("vault-local");
  await app.export(Vault, { open: async (who) => `opened for ${who}` }, { scope: "local", token: true });
  const local = await app.refer(Vault, {});
  assert.equal(await local.open("self"), "opened for self");
});
