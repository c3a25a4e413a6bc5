// SIGTERM stops an application gracefully, as Java's shutdown hook does: a provider process that
// installs no handler is unregistered from a real ZooKeeper before it exits (its session would keep
// the node for 60 s otherwise), every application of the process stops, the process then dies of
// the signal; `shutdownHook: false` leaves the signal alone; a program's own handler keeps the exit.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { waitFor } from "../../src/testing/index.js";
import { useZooKeeper } from "../registry/zookeeper-fixture.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/signal-provider.ts", import.meta.url));
const PROVIDERS = "/dubbo/org.apache.dubbo.demo.DemoService/providers";

const fixture = useZooKeeper("dubbo-ts-shutdown-hook-");
const children: ChildProcess[] = [];
fixture.cleanups.push(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, "SIGKILL");
    }
  }
});

interface Provider {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

async function startProvider(
  mode: "default" | "opt-out" | "own-handler" | "hanging-call",
): Promise<Provider> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", FIXTURE, fixture.zk.connectString, mode, fixture.dir],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    output += s;
  });
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    output += s;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await waitFor(`the ${mode} provider printed READY`, () => output.includes("READY"), 30_000);
  await waitFor(
    `both applications of the ${mode} provider registered`,
    async () => (await nodesOf(child)).length === 2,
    10_000,
  );
  return { child, exited, output: () => output };
}

/** The provider nodes registered by `child`'s process. */
async function nodesOf(child: ChildProcess): Promise<string[]> {
  const names = (await fixture.inspector.getChildren(PROVIDERS)) ?? [];
  return names.filter((n) => decodeURIComponent(n).includes(`pid=${child.pid}&`));
}

describe("shutdown hook", () => {
  it("shutdown - SIGTERM to a provider with no handler unregisters both applications, then the process dies of it", async () => {
    const provider = await startProvider("default");
    provider.child.kill("SIGTERM");
    const exit = await provider.exited;
    assert.deepEqual(
      await nodesOf(provider.child),
      [],
      "the provider nodes are gone when the process has exited",
    );
    assert.ok(exit.signal === "SIGTERM" || exit.code === 143, `died of SIGTERM, got ${JSON.stringify(exit)}`);
    for (const name of ["signal-a", "signal-b"]) {
      assert.match(provider.output(), new RegExp(`SIGTERM: application ${name} stopped`));
    }
  });

  it("shutdown - a second SIGTERM while the stop drains a hanging call ends the process at once", async () => {
    const provider = await startProvider("hanging-call");
    provider.child.kill("SIGTERM");
    await waitFor(
      "the stop began",
      () => provider.output().includes("stopping application signal-a"),
      10_000,
    );
    provider.child.kill("SIGTERM");
    // The drain would take 60 s (shutdownWaitMs); the second signal must not wait for it.
    const exit = await Promise.race([
      provider.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("still draining after 20 s")), 20_000).unref(),
      ),
    ]);
    assert.ok(exit.signal === "SIGTERM" || exit.code === 143, `died of SIGTERM, got ${JSON.stringify(exit)}`);
    assert.doesNotMatch(provider.output(), /application signal-a stopped/);
  });

  it("shutdown - with shutdownHook: false the signal kills the process as Node does, leaving its nodes", async () => {
    const provider = await startProvider("opt-out");
    provider.child.kill("SIGTERM");
    const exit = await provider.exited;
    assert.equal(exit.signal, "SIGTERM");
    assert.equal((await nodesOf(provider.child)).length, 2, "nodes stay until the 60 s session expires");
    assert.doesNotMatch(provider.output(), /stopping application/);
  });

  it("shutdown - a program's own SIGTERM handler still decides the exit; the applications stop meanwhile", async () => {
    const provider = await startProvider("own-handler");
    provider.child.kill("SIGTERM");
    const exit = await provider.exited;
    assert.deepEqual(exit, { code: 7, signal: null }, provider.output());
    assert.match(provider.output(), /OWN HANDLER SAW THE STOP/);
    assert.deepEqual(await nodesOf(provider.child), []);
  });
});
