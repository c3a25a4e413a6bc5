import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, it } from "node:test";
import { Code, RpcError, silentLogger } from "../../../core/index.js";
import {
  createConnectionHolder,
  createConnectionPool,
  createManagedConnection,
  type Logger,
} from "../../../transport/index.js";
import { decodeHessianString, encodeHessianString, hessian2EventCodec } from "./event-codec.js";
import { createExchangeClient, type ExchangeClient } from "./exchange-client.js";
import { createExchangeServer } from "./exchange-server.js";
import { codeFromStatus, Status } from "./status.js";

const quiet: Logger = silentLogger;
const call = { service: "demo.Svc", method: "m" };

function managedFactory(host: string) {
  return (address: string) => {
    const port = Number(address.slice(address.lastIndexOf(":") + 1));
    return createManagedConnection(createExchangeClient({ host, port, logger: quiet }), {
      backoff: { initialMs: 20, random: () => 0.5 },
      doubleCheckMs: 10,
      logger: quiet,
    });
  };
}

async function freePort(): Promise<number> {
  const raw = createServer();
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  const port = (raw.address() as { port: number }).port;
  await new Promise((r) => raw.close(r));
  return port;
}

describe("connection management", () => {
  it("connection holder - `check` fails connectAll naming the address when nothing is reachable", async () => {
    const port = await freePort();
    const holder = createConnectionHolder<ExchangeClient, undefined>({
      settings: undefined,
      connections: 1,
      create: managedFactory("127.0.0.1"),
      label: "demo.Svc",
    });
    holder.add(`127.0.0.1:${port}`);
    try {
      await assert.rejects(holder.connectAll({ check: true }), (e: unknown) => {
        return (
          e instanceof RpcError &&
          e.code === Code.Unavailable &&
          e.message.includes(`127.0.0.1:${port}`) &&
          /check=false/.test(e.message)
        );
      });
      assert.deepEqual(holder.sets().retrying, [`127.0.0.1:${port}`]);
      await holder.connectAll({ check: false });
    } finally {
      await holder.close();
    }
  });

  it("connection holder - `lazy` makes no link until the first get", async () => {
    const server = await createExchangeServer({
      host: "127.0.0.1",
      port: 0,
      logger: quiet,
      handler: (r) => r.body,
    });
    const address = `127.0.0.1:${server.port}`;
    let made = 0;
    const factory = managedFactory("127.0.0.1");
    const holder = createConnectionHolder<ExchangeClient, undefined>({
      settings: undefined,
      connections: 2,
      lazy: true,
      create: (a) => {
        made += 1;
        return factory(a);
      },
    });
    holder.add(address);
    try {
      await holder.connectAll({ check: true });
      assert.deepEqual(holder.sets().uninitialized, [address]);
      assert.equal(holder.isUntried(address), true);
      assert.equal(holder.current(address), undefined);
      assert.deepEqual(holder.links(address), []);
      assert.equal(made, 0, "a lazy holder makes its links on the first get, not when added");
      assert.equal(server.channels.size, 0);
      const client = await holder.get(address);
      const res = await client.request(Buffer.from("hi"), call, 1000);
      assert.equal(res.body.toString(), "hi");
      assert.equal(made, 2);
      assert.equal(holder.isUntried(address), false);
      assert.deepEqual(holder.sets().alive, [address]);
    } finally {
      await holder.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("connection pool - references to one address share one connection until the last releases it", async () => {
    const server = await createExchangeServer({
      host: "127.0.0.1",
      port: 0,
      logger: quiet,
      handler: (r) => r.body,
    });
    const address = `127.0.0.1:${server.port}`;
    const pool = createConnectionPool<ExchangeClient, undefined>({ create: managedFactory("127.0.0.1") });
    const options = { connections: 0, pool, settings: undefined, create: managedFactory("127.0.0.1") };
    const first = createConnectionHolder<ExchangeClient, undefined>(options);
    const second = createConnectionHolder<ExchangeClient, undefined>(options);
    first.add(address);
    second.add(address);
    try {
      await first.connectAll({ check: true });
      await second.connectAll({ check: true });
      assert.equal(await first.get(address), await second.get(address));
      assert.equal(server.channels.size, 1);
      await first.close();
      assert.equal((await second.get(address)).isConnected, true);
      await second.close();
      assert.deepEqual(pool.addresses, []);
    } finally {
      await pool.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("connection holder - a read-only provider is not available", async () => {
    const server = await createExchangeServer({
      host: "127.0.0.1",
      port: 0,
      logger: quiet,
      handler: (r) => r.body,
    });
    const address = `127.0.0.1:${server.port}`;
    const holder = createConnectionHolder<ExchangeClient, undefined>({
      settings: undefined,
      connections: 1,
      create: managedFactory("127.0.0.1"),
      isUsable: (c) => !c.isReadOnly,
    });
    holder.add(address);
    try {
      await holder.connectAll({ check: true });
      assert.equal(holder.isAvailable(), true);
      server.sendReadOnly();
      const deadline = Date.now() + 3000;
      while (holder.isAvailable() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.equal(holder.isAvailable(), false);
      await assert.rejects(
        holder.get(address),
        (e: unknown) => e instanceof RpcError && /read-only/.test(e.message),
      );
    } finally {
      await holder.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("event codec - writes Hessian 2 null and strings as Java does and reads them back", () => {
    assert.deepEqual(hessian2EventCodec.encodeEvent(null), Buffer.from([0x4e]));
    assert.deepEqual(hessian2EventCodec.encodeEvent("R"), Buffer.from([0x01, 0x52]));
    for (const text of [
      "",
      "héllo",
      "x".repeat(31),
      "y".repeat(32),
      "z".repeat(1024),
      "€".repeat(70_000),
      "😀 ok",
    ]) {
      assert.equal(decodeHessianString(encodeHessianString(text)), text);
    }
    assert.equal(decodeHessianString(Buffer.from([0x4e])), null);
    assert.equal(decodeHessianString(Buffer.from([0x91])), undefined);
  });

  it("status - every Dubbo status maps to the documented code", () => {
    assert.equal(codeFromStatus(Status.CLIENT_TIMEOUT), Code.DeadlineExceeded);
    assert.equal(codeFromStatus(Status.SERVER_TIMEOUT), Code.DeadlineExceeded);
    assert.equal(codeFromStatus(Status.CHANNEL_INACTIVE), Code.Unavailable);
    assert.equal(codeFromStatus(Status.BAD_REQUEST), Code.InvalidArgument);
    assert.equal(codeFromStatus(Status.BAD_RESPONSE), Code.Internal);
    assert.equal(codeFromStatus(Status.SERVICE_NOT_FOUND), Code.Unimplemented);
    assert.equal(codeFromStatus(Status.SERVICE_ERROR), Code.Unknown);
    assert.equal(codeFromStatus(Status.SERVER_ERROR), Code.Internal);
    assert.equal(codeFromStatus(Status.CLIENT_ERROR), Code.Internal);
    assert.equal(codeFromStatus(Status.SERVER_THREADPOOL_EXHAUSTED_ERROR), Code.ResourceExhausted);
  });
});
