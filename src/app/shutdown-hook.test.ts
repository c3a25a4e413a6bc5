// Whether an application installs the shutdown hook, set in each place settings come from: the
// hook is a SIGTERM/SIGINT listener of the process, so its presence is what these tests observe.
// (test/app/shutdown-hook.test.ts sends real signals to real provider processes.)
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { silentLogger } from "../core/index.js";
import { createDubbo, type DubboOptions } from "./application.js";

let dir = "";

/** The SIGTERM and SIGINT listeners an application created with `options` adds while it runs. */
async function hookListeners(options: DubboOptions, yaml?: string): Promise<number[]> {
  let configFile: string | undefined;
  if (yaml !== undefined) {
    configFile = join(dir, `dubbo-${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(configFile, yaml);
  }
  const before = [process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")];
  await using _app = await createDubbo({
    application: { name: "hook" },
    env: false,
    logger: silentLogger,
    ...(configFile === undefined ? {} : { configFile }),
    ...options,
  });
  return [process.listenerCount("SIGTERM") - before[0]!, process.listenerCount("SIGINT") - before[1]!];
}

describe("shutdown hook setting", () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "dubbo-ts-shutdown-hook-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("shutdown hook - on by default: the application listens to SIGTERM and SIGINT", async () => {
    assert.deepEqual(await hookListeners({}), [1, 1]);
  });

  it("shutdown hook - off from code, dubbo.yaml or DUBBO_APPLICATION_SHUTDOWN_HOOK", async () => {
    assert.deepEqual(await hookListeners({ shutdownHook: false }), [0, 0]);
    assert.deepEqual(await hookListeners({ application: { name: "hook", shutdownHook: false } }), [0, 0]);
    assert.deepEqual(await hookListeners({}, "dubbo:\n  application:\n    shutdownHook: false\n"), [0, 0]);
    assert.deepEqual(await hookListeners({ env: { DUBBO_APPLICATION_SHUTDOWN_HOOK: "false" } }), [0, 0]);
  });

  it("shutdown hook - the environment wins over code, as for every setting", async () => {
    const env = { DUBBO_APPLICATION_SHUTDOWN_HOOK: "true" };
    assert.deepEqual(await hookListeners({ env, shutdownHook: false }), [1, 1]);
  });

  it("shutdown hook - Java's dubbo.shutdownHook.listenIgnore: true in a Spring Boot yaml turns it off", async () => {
    const java = (value: string) =>
      `dubbo:\n  application:\n    name: hook\n  shutdown-hook:\n    listen-ignore: ${value}\n`;
    assert.deepEqual(await hookListeners({}, java("true")), [0, 0]);
    assert.deepEqual(await hookListeners({}, java("false")), [1, 1]);
  });

  it("shutdown hook - a misspelt Java key or a second setting of it fails, naming both", async () => {
    await assert.rejects(
      hookListeners({}, "dubbo:\n  shutdownHook:\n    ignore: true\n"),
      /dubbo\.shutdownHook takes only listen-ignore/,
    );
    await assert.rejects(
      hookListeners(
        {},
        "dubbo:\n  application:\n    shutdownHook: true\n  shutdownHook:\n    listenIgnore: true\n",
      ),
      /dubbo\.shutdownHook\.listenIgnore and dubbo\.application\.shutdownHook configure the same setting/,
    );
  });
});
