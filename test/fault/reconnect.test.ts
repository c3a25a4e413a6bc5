// A provider process killed and started again on the same port after a long outage is reached
// within one `reconnect` period: however long the outage, the consumer's next attempt is never
// more than a period away (an exponential backoff would have grown to its cap, 30 s, after about
// nine attempts). Every call made during the outage reports when the next attempt comes.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Code, RpcError, silentLogger, Url } from "../../src/core/index.js";
import { createDubboProtocol, type DubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createStub } from "../../src/proxy/index.js";
import { pollUntil } from "../../src/testing/index.js";
import { FaultService } from "./fixtures/fault-service.js";
import { type ProviderProcess, spawnProvider } from "./spawn-provider.js";

const quiet = silentLogger;
const children: ProviderProcess[] = [];
const protocols: DubboProtocol[] = [];
/** Short, so that many periods (more attempts than a backoff needs to reach its cap) pass quickly. */
const PERIOD_MS = 300;
/** Attempts made while the provider is down: an exponential backoff from 100 ms would be at 30 s. */
const OUTAGE_ATTEMPTS = 12;

after(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(protocols.map((p) => p.destroy()));
});

async function provider(port = 0): Promise<ProviderProcess> {
  const p = await spawnProvider(port);
  children.push(p);
  return p;
}

async function stubFor(port: number, reconnect: string) {
  const protocol = createDubboProtocol({ logger: quiet });
  protocols.push(protocol);
  const url = Url.parse(
    `dubbo://127.0.0.1:${port}/demo.FaultService?interface=demo.FaultService&timeout=3000&connections=1&reconnect=${reconnect}`,
  );
  const invoker = await protocol.refer(url);
  return { stub: createStub(FaultService, invoker), invoker };
}

/** The consumer's own account of a call made while the link is down. */
async function failedCall(call: () => Promise<unknown>): Promise<string> {
  const error = await call().then(
    () => assert.fail("the call succeeded while the provider was down"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof RpcError && error.code === Code.Unavailable, String(error));
  return error.message;
}

describe("reconnect (real provider process)", () => {
  it("reconnect - after an outage longer than an exponential backoff's cap, attempts stay one period apart and the provider is reached again", async () => {
    const first = await provider();
    const { stub, invoker } = await stubFor(first.port, String(PERIOD_MS));
    assert.equal(await stub.sayHello("a"), "Hello a");
    first.kill("SIGKILL");
    await first.exited;

    // Count attempts by the "next attempt in N ms" each failed call reports: a rise in N means a
    // new attempt was scheduled. Every N must be within the period. (A call that meets an attempt
    // in progress gets that attempt's own error instead.)
    let attempts = 0;
    let previousWait = Number.POSITIVE_INFINITY;
    for (let calls = 0; attempts < OUTAGE_ATTEMPTS; calls++) {
      assert.ok(calls < 2000, `${OUTAGE_ATTEMPTS} attempts within 2000 calls (${attempts} seen)`);
      const message = await failedCall(() => stub.sayHello("down"));
      const match = /next attempt in (\d+) ms/.exec(message);
      if (match === null) continue;
      const wait = Number(match[1]);
      assert.ok(
        wait <= PERIOD_MS,
        `after ${attempts} attempts the next is ${wait} ms away, over reconnect=${PERIOD_MS}`,
      );
      if (wait > previousWait) attempts++;
      previousWait = wait;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const second = await provider(first.port);
    assert.ok(await pollUntil(() => invoker.isAvailable(), 10_000), "reconnected");
    assert.equal(await stub.sayHello("again"), "Hello again");
    second.kill("SIGKILL");
  });

  it("reconnect=false: a dropped link stays down, and calls say so", async () => {
    const only = await provider();
    const { stub } = await stubFor(only.port, "false");
    assert.equal(await stub.sayHello("a"), "Hello a");
    only.kill("SIGKILL");
    await only.exited;
    const message = await failedCall(() => stub.sayHello("down"));
    assert.match(message, /not reconnecting \(reconnect=false\)/);
  });
});
