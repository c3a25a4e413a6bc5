import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, describe, it } from "node:test";
import { Code, isRetryable, RpcError, silentLogger, Url } from "../../src/core/index.js";
import { createDubboProtocol, type DubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createStub } from "../../src/proxy/index.js";
import { pollUntil } from "../../src/testing/index.js";
import type { Logger } from "../../src/transport/index.js";
import { FaultService } from "./fixtures/fault-service.js";
import { type ProviderProcess, spawnProvider } from "./spawn-provider.js";

const quiet: Logger = silentLogger;
const children: ProviderProcess[] = [];
const protocols: DubboProtocol[] = [];

after(async () => {
  for (const child of children) {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
  }
  await Promise.all(protocols.map((p) => p.destroy()));
});

async function provider(port = 0, params = ""): Promise<ProviderProcess> {
  const p = await spawnProvider(port, params);
  children.push(p);
  return p;
}

async function stubFor(port: number, params = "") {
  const protocol = createDubboProtocol({ logger: quiet });
  protocols.push(protocol);
  const url = Url.parse(
    `dubbo://127.0.0.1:${port}/demo.FaultService?interface=demo.FaultService&timeout=10000&connections=1${params}`,
  );
  const invoker = await protocol.refer(url);
  return { stub: createStub(FaultService, invoker), invoker };
}

function code(error: unknown): Code | undefined {
  return error instanceof RpcError ? error.code : undefined;
}

describe("dubbo faults (real processes)", () => {
  it("fault - provider killed mid-call: pending calls fail at once as Unavailable, then it reconnects", async () => {
    const first = await provider();
    const { stub, invoker } = await stubFor(first.port);
    assert.equal(await stub.sayHello("a"), "Hello a");
    const pending = [stub.slow(8000), stub.slow(8000)].map((p) =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
    first.kill("SIGKILL");
    const errors = await Promise.all(pending);
    // Unavailable, not DeadlineExceeded: the calls ended with the link, not with their 10 s timeout.
    for (const e of errors) assert.equal(code(e), Code.Unavailable, String(e));
    assert.equal(invoker.isAvailable(), false);
    const second = await provider(first.port);
    assert.ok(await pollUntil(() => invoker.isAvailable(), 15_000), "the consumer reconnected");
    assert.equal(await stub.sayHello("again"), "Hello again");
    second.kill("SIGKILL");
  });

  it("fault - half-open link (provider frozen): heartbeat timeout closes it and fails pending calls", async () => {
    const p = await provider();
    const { stub } = await stubFor(p.port, "&heartbeat=400");
    assert.equal(await stub.sayHello("a"), "Hello a");
    const pending = stub.slow(50).then(
      () => undefined,
      (e: unknown) => e,
    );
    p.kill("SIGSTOP");
    // The frozen peer keeps TCP open but answers nothing; 3 × heartbeat of silence closes the link.
    const late = await stub.slow(10).then(
      () => undefined,
      (e: unknown) => e,
    );
    const earlier = await pending;
    assert.equal(code(late), Code.Unavailable, String(late));
    assert.ok(earlier === undefined || code(earlier) === Code.Unavailable, String(earlier));
    assert.match((late as RpcError).message, /closed|heartbeat|no data/);
    p.kill("SIGCONT");
    p.kill("SIGKILL");
  });

  it("fault - oversize payload: a clear InvalidArgument naming `payload`, on either side", async () => {
    const p = await provider(0, "&payload=2048");
    const { stub } = await stubFor(p.port);
    await assert.rejects(stub.echoSize("x".repeat(4096)), (e: unknown) => {
      return code(e) === Code.InvalidArgument && /payload/.test((e as Error).message);
    });
    assert.equal(await stub.echoSize("x".repeat(100)), 100);
    const small = await stubFor(p.port, "&payload=512");
    await assert.rejects(small.stub.echoSize("y".repeat(1000)), (e: unknown) => {
      return code(e) === Code.InvalidArgument && /payload/.test((e as Error).message);
    });
    p.kill("SIGKILL");
  });

  it("fault - garbage bytes get a plain answer and a close; the provider keeps serving", async () => {
    const p = await provider();
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(p.port, "127.0.0.1");
      let text = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error("no close within 5 s"));
      }, 5000);
      socket.on("data", (d) => {
        text += d.toString();
      });
      socket.on("close", () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.on("error", () => {});
      socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    });
    assert.match(reply, /Dubbo/);
    const { stub } = await stubFor(p.port);
    assert.equal(await stub.sayHello("still"), "Hello still");
    p.kill("SIGKILL");
  });

  it("fault - a slow handler past its timeout: DeadlineExceeded naming it; the provider logs the overrun", async () => {
    const p = await provider();
    const { stub } = await stubFor(p.port, "&slow.timeout=100");
    await assert.rejects(stub.slow(400), (e: unknown) => {
      const m = (e as Error).message;
      return (
        code(e) === Code.DeadlineExceeded &&
        m.includes("demo.FaultService.slow") &&
        m.includes(`127.0.0.1:${p.port}`) &&
        /\d+ ms/.test(m)
      );
    });
    assert.ok(
      await pollUntil(() => /slow .* took \d+ ms, over its timeout of \d+ ms/.test(p.stderr()), 5000),
      p.stderr(),
    );
    p.kill("SIGKILL");
  });

  it("fault - thread pool exhausted: status 100 reaches the consumer as ResourceExhausted (retryable)", async () => {
    const p = await provider(0, "&threads=2&queues=0");
    const { stub } = await stubFor(p.port);
    const busy = [stub.slow(500), stub.slow(500)];
    await new Promise((r) => setTimeout(r, 100));
    await assert.rejects(stub.sayHello("third"), (e: unknown) => {
      return code(e) === Code.ResourceExhausted && isRetryable(e) && /threads=2/.test((e as Error).message);
    });
    assert.deepEqual(await Promise.all(busy), ["slept 500", "slept 500"]);
    assert.equal(await stub.sayHello("after"), "Hello after");
    p.kill("SIGKILL");
  });

  it("fault - graceful shutdown under load: in-flight calls complete, later ones succeed or fail as Unavailable", async () => {
    const p = await provider(0, "&threads=500");
    const { stub, invoker } = await stubFor(p.port);
    assert.equal(await stub.sayHello("warm"), "Hello warm");
    const inFlight = Array.from({ length: 30 }, () => stub.slow(300));
    await new Promise((r) => setTimeout(r, 100));
    p.kill("SIGTERM");
    const later: Array<Promise<unknown>> = [];
    for (let i = 0; i < 20; i++) {
      later.push(
        stub.sayHello(`late ${i}`).then(
          (v) => v,
          (e: unknown) => e,
        ),
      );
      await new Promise((r) => setTimeout(r, 10));
    }
    // Every call that was running when SIGTERM arrived completes: nothing is lost.
    assert.deepEqual(await Promise.all(inFlight), Array(30).fill("slept 300"));
    // A call made while the provider drains is served, or fails as Unavailable because the provider
    // said READONLY, is closing the connection, or has closed it: the failure a cluster moves to
    // another provider, never a business error or another code.
    const draining = new RegExp(
      `read-only \\(shutting down\\)|127\\.0\\.0\\.1:${p.port} is shutting down|no connection to 127\\.0\\.0\\.1:${p.port}`,
    );
    for (const [i, outcome] of (await Promise.all(later)).entries()) {
      if (typeof outcome === "string") {
        assert.equal(outcome, `Hello late ${i}`);
        continue;
      }
      assert.ok(
        outcome instanceof RpcError && outcome.code === Code.Unavailable && draining.test(outcome.message),
        `a call during shutdown failed otherwise than as Unavailable from the draining provider: ${String(outcome)}`,
      );
    }
    assert.equal(await p.exited, 0);
    assert.equal(invoker.isAvailable(), false);
  });
});
