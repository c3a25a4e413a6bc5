// `timeout` bounds each attempt, as in Java Dubbo 2.7: real providers over the dubbo protocol on
// loopback (one application each), a consumer application above them. A timed-out attempt is a
// failure the cluster and mock layers see (failover retries it, failsafe swallows it, a fail-mock
// answers it); per-call options give one call its own timeout, signal and attachments; an abort
// or a losing fork frees the pending request at once. The slow provider never answers on its own
// (it waits on a gate the test opens at the end), so nothing here depends on how fast the machine is.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  Code,
  createDubbo,
  type DubboApplication,
  defineService,
  getRpcContext,
  java,
  RpcError,
  runWithRpcContext,
  withCallOptions,
} from "../../src/index.js";
import { createDubboProtocol, type DubboInvoker } from "../../src/protocol/dubbo/index.js";
import { createRecordingLogger, waitFor } from "../../src/testing/index.js";

const TimeoutService = defineService("demo.TimeoutService", {
  /** Answers the provider's name: at once, never (until the test ends), or after 300 ms. */
  whoami: { args: [java.String], returns: java.String },
});

type Behaviour = "fast" | "hung" | "late";

interface TestProvider {
  readonly name: Behaviour;
  readonly port: number;
  /** Calls that reached the handler. */
  entered: number;
  /** The `timeout` attachment of each call, as the provider received it. */
  readonly timeouts: unknown[];
}

const LATE_ANSWER_MS = 300;
/** What the applications warned about (a provider's overrun, failsafe's swallowed failure). */
const logger = createRecordingLogger();
const applications: DubboApplication[] = [];
const gates: Array<() => void> = [];
const providers = new Map<Behaviour, TestProvider>();

async function startProvider(name: Behaviour): Promise<TestProvider> {
  const app = await createDubbo({
    application: { name: `timeouts-${name}` },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    env: false,
    logger,
  });
  applications.push(app);
  const provider: TestProvider = { name, port: 0, entered: 0, timeouts: [] };
  const whoami = async (): Promise<string> => {
    provider.entered++;
    provider.timeouts.push(getRpcContext().invocation?.attachments.timeout);
    if (name === "hung") await new Promise<void>((resolve) => gates.push(resolve));
    if (name === "late") await new Promise((resolve) => setTimeout(resolve, LATE_ANSWER_MS));
    return name;
  };
  const exported = await app.export(TimeoutService, { whoami }, { scope: "remote" });
  return Object.assign(provider, { port: exported.urls[0]?.port ?? 0 });
}

function provider(name: Behaviour): TestProvider {
  const found = providers.get(name);
  if (found === undefined) throw new Error(`provider ${name} did not start`);
  return found;
}

const urlOf = (...names: Behaviour[]) => names.map((n) => `dubbo://127.0.0.1:${provider(n).port}`).join(";");

/** A consumer application whose dubbo protocol hands the test every invoker it makes. */
async function consumer(): Promise<{ app: DubboApplication; invokers: DubboInvoker[] }> {
  const app = await createDubbo({ application: { name: "timeouts-consumer" }, env: false, logger });
  applications.push(app);
  const invokers: DubboInvoker[] = [];
  app.extensions.protocol.register(
    "dubbo",
    (context) => {
      const dubbo = createDubboProtocol({ logger: context.logger });
      return {
        name: dubbo.name,
        defaultPort: dubbo.defaultPort,
        export: (invoker) => dubbo.export(invoker),
        refer: async (url) => {
          const invoker = await dubbo.refer(url);
          invokers.push(invoker);
          return invoker;
        },
        destroy: () => dubbo.destroy(),
      };
    },
    { replace: true },
  );
  return { app, invokers };
}

function invokerOf(invokers: readonly DubboInvoker[], name: Behaviour): DubboInvoker {
  const address = `127.0.0.1:${provider(name).port}`;
  const found = invokers.find((i) => i.url.address === address);
  if (found === undefined) throw new Error(`no invoker for ${name} (${address})`);
  return found;
}

const codeOf = (error: unknown) => (error instanceof RpcError ? error.code : undefined);

before(async () => {
  for (const name of ["fast", "hung", "late"] as const) providers.set(name, await startProvider(name));
});

after(async () => {
  for (const open of gates.splice(0)) open();
  for (const app of applications.reverse()) await app.stop();
});

describe("per-attempt timeouts (dubbo protocol, loopback)", () => {
  it("timeouts - failover retries a timed-out attempt on the other provider", async () => {
    const { app } = await consumer();
    const stub = await app.refer(TimeoutService, {
      url: urlOf("fast", "hung"),
      cluster: "failover",
      retries: 2,
      timeoutMs: 500,
      loadbalance: "roundrobin",
    });
    const hungBefore = provider("hung").entered;
    // Round robin over two providers: some of these calls try the hung one first.
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(await stub.whoami(`call ${i}`));
    assert.deepEqual(answers, ["fast", "fast", "fast", "fast"]);
    assert.ok(provider("hung").entered > hungBefore, "an attempt timed out on the hung provider");
  });

  it("timeouts - failsafe swallows a timeout and answers null", async () => {
    const { app } = await consumer();
    const stub = await app.refer(TimeoutService, { url: urlOf("hung"), cluster: "failsafe", timeoutMs: 200 });
    assert.equal(await stub.whoami("x"), null);
    assert.ok(
      logger
        .messages("warn")
        .some((w) => /failsafe ignored a failure of demo\.TimeoutService method whoami/.test(w)),
    );
  });

  it("timeouts - mock=fail:return answers when the attempts time out", async () => {
    const { app } = await consumer();
    const stub = await app.refer(TimeoutService, {
      url: urlOf("hung"),
      mock: "fail:return fallback",
      retries: 0,
      timeoutMs: 200,
    });
    assert.equal(await stub.whoami("x"), "fallback");
  });

  it("timeouts - the error names the provider's address, the method, elapsed and configured ms, and both keys", async () => {
    const { app } = await consumer();
    const stub = await app.refer(TimeoutService, { url: urlOf("hung"), cluster: "failfast", timeoutMs: 200 });
    const address = `127.0.0.1:${provider("hung").port}`;
    await assert.rejects(stub.whoami("x"), (e: unknown) => {
      assert.equal(codeOf(e), Code.DeadlineExceeded);
      const message = (e as Error).message;
      assert.match(
        message,
        new RegExp(`demo\\.TimeoutService\\.whoami to ${address} timed out after \\d+ ms`),
      );
      assert.match(message, /\(timeout 200 ms\)/);
      assert.match(message, /`timeoutMs`/);
      assert.match(message, /`timeout`/);
      return true;
    });
  });

  it("call options - a per-call timeout overrides the reference's, each way, and reaches the provider", async () => {
    const { app } = await consumer();
    const late = await app.refer(TimeoutService, { url: urlOf("late"), retries: 0, timeoutMs: 100 });
    await assert.rejects(late.whoami("x"), (e: unknown) => codeOf(e) === Code.DeadlineExceeded);
    assert.equal(await withCallOptions(late, { timeoutMs: 10_000 }).whoami("x"), "late");
    // Java's way, kept: the caller's `timeout` context attachment is that call's timeout.
    const viaContext = await runWithRpcContext((ctx) => {
      ctx.setAttachment("timeout", "9000");
      return late.whoami("x");
    });
    assert.equal(viaContext, "late");
    assert.deepEqual(provider("late").timeouts.slice(-3), ["100", "10000", "9000"]);

    const hung = await app.refer(TimeoutService, { url: urlOf("hung"), retries: 0, timeoutMs: 60_000 });
    await assert.rejects(
      withCallOptions(hung, { timeoutMs: 100 }).whoami("x"),
      (e: unknown) => codeOf(e) === Code.DeadlineExceeded && /\(timeout 100 ms\)/.test((e as Error).message),
    );
  });

  it("call options - an abort rejects with Canceled and frees the pending request at once", async () => {
    const { app, invokers } = await consumer();
    const stub = await app.refer(TimeoutService, { url: urlOf("hung"), retries: 0, timeoutMs: 60_000 });
    const hung = provider("hung");
    const enteredBefore = hung.entered;
    const controller = new AbortController();
    const call = withCallOptions(stub, { signal: controller.signal, attachments: { traceId: "t-1" } }).whoami(
      "x",
    );
    await waitFor("the provider to hold the call", () => hung.entered > enteredBefore);
    const invoker = invokerOf(invokers, "hung");
    assert.equal(invoker.pendingCount, 1);
    controller.abort();
    assert.equal(invoker.pendingCount, 0, "the pending entry is gone as soon as the signal aborts");
    await assert.rejects(call, (e: unknown) => codeOf(e) === Code.Canceled);
  });

  it("forking - the losing fork's pending request is freed when the winner answers", async () => {
    const { app, invokers } = await consumer();
    const stub = await app.refer(TimeoutService, {
      url: urlOf("fast", "hung"),
      cluster: "forking",
      forks: 2,
      timeoutMs: 60_000,
    });
    const hung = provider("hung");
    const enteredBefore = hung.entered;
    assert.equal(await stub.whoami("x"), "fast");
    assert.equal(invokerOf(invokers, "hung").pendingCount, 0, "the loser no longer waits");
    await waitFor("the hung provider to receive its fork", () => hung.entered > enteredBefore);
  });
});
