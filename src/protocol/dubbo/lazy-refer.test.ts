import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Code, defineService, java, RpcError, silentLogger, Url } from "../../core/index.js";
import { createProviderInvoker, createStub } from "../../proxy/index.js";
import type { ProtocolObserver } from "../shared/protocol-observer.js";
import { createDubboProtocol, type DubboProtocol } from "./index.js";

const IFACE = "demo.LazyService";
const LazyService = defineService(IFACE, { hello: { args: [java.String], returns: java.String } });
const PROVIDERS = 50;

const protocols: DubboProtocol[] = [];
after(async () => {
  await Promise.all(protocols.map((p) => p.destroy()));
});

/** A provider on its own port that counts the connections its server accepted. */
async function countingProvider(index: number) {
  const counts = { accepted: 0, open: 0 };
  const observer: ProtocolObserver = {
    connection(_peer, role, up) {
      if (role !== "server") return;
      if (up) counts.accepted += 1;
      counts.open += up ? 1 : -1;
    },
    poolExhausted() {},
    threadPool() {},
  };
  const protocol = createDubboProtocol({ logger: silentLogger, shutdownWaitMs: 0, observer });
  protocols.push(protocol);
  const exporter = await protocol.export(
    createProviderInvoker(
      LazyService,
      { hello: (name: string) => `hello ${name} from ${index}` },
      Url.parse(`dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}`),
    ),
  );
  return { port: exporter.url.port, counts };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe("dubbo protocol - lazy=true", () => {
  for (const connections of [0, 1]) {
    it(`connections=${connections}: refers ${PROVIDERS} providers without a socket; the first call connects, the next reuses it, destroy closes it`, async () => {
      const providers = await Promise.all(Array.from({ length: PROVIDERS }, (_, i) => countingProvider(i)));
      const consumer = createDubboProtocol({ logger: silentLogger });
      protocols.push(consumer);
      const invokers = await Promise.all(
        providers.map((p) =>
          consumer.refer(
            Url.parse(
              `dubbo://127.0.0.1:${p.port}/${IFACE}?interface=${IFACE}&lazy=true&connections=${connections}&timeout=3000`,
            ),
          ),
        ),
      );
      const accepted = () => providers.reduce((sum, p) => sum + p.counts.accepted, 0);
      // Nothing accepted: give a wrongly eager connect the time to land before looking.
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(accepted(), 0, "no provider accepted a connection before a call");
      assert.ok(invokers.every((i) => i.isAvailable()));

      const picked = 17;
      const stub = createStub(LazyService, invokers[picked]!);
      assert.equal(await stub.hello("a"), `hello a from ${picked}`);
      assert.equal(providers[picked]!.counts.accepted, 1);
      assert.equal(await stub.hello("b"), `hello b from ${picked}`);
      assert.equal(providers[picked]!.counts.accepted, 1, "the second call reuses the first link");
      assert.equal(accepted(), 1, "only the provider called was connected to");

      await invokers[picked]!.destroy();
      await until(() => providers[picked]!.counts.open === 0);
      assert.equal(providers[picked]!.counts.open, 0, "destroy closes the lazily opened link");
      await consumer.destroy();
    });
  }

  it("an untried reference is available; after its first connect fails it is not", async () => {
    const gone = await countingProvider(0);
    await protocols.at(-1)!.destroy();
    const consumer = createDubboProtocol({ logger: silentLogger });
    protocols.push(consumer);
    const invoker = await consumer.refer(
      Url.parse(`dubbo://127.0.0.1:${gone.port}/${IFACE}?interface=${IFACE}&lazy=true&timeout=3000`),
    );
    assert.equal(invoker.isAvailable(), true);
    await assert.rejects(
      createStub(LazyService, invoker).hello("x"),
      (e: unknown) => e instanceof RpcError && e.code === Code.Unavailable,
    );
    assert.equal(invoker.isAvailable(), false);
    await consumer.destroy();
  });
});
