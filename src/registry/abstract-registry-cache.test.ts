import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { silentLogger, Url } from "../core/index.js";
import { AbstractRegistry } from "./abstract-registry.js";
import { properties } from "./properties-format.js";
import type { NotifyListener } from "./registry.js";

const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-abstract-cache-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A registry whose notifications the test delivers, as a remote registry's watch would. */
class DeliveringRegistry extends AbstractRegistry {
  isAvailable(): boolean {
    return true;
  }

  deliver(subscription: Url, listener: NotifyListener, urls: readonly Url[]): void {
    this.notify(subscription, listener, urls);
  }
}

test("abstract registry - 1 000 services exported one after another: the cache file holds all of them, written a few times, not 1 000", async () => {
  const file = join(dir, "exports.cache");
  const registry = new DeliveringRegistry(Url.parse(`zookeeper://127.0.0.1:2181?file=${file}`), {
    logger: silentLogger,
  });
  const services = 1000;
  const listener: NotifyListener = () => {};
  for (let i = 0; i < services; i++) {
    const iface = `com.example.Service${i}`;
    const provider = Url.parse(`dubbo://10.0.0.1:20880/${iface}?interface=${iface}&side=provider`);
    await registry.register(provider);
    const rules = provider.with({ protocol: "provider" }).withParams({ category: "configurators" });
    await registry.subscribe(rules, listener);
    registry.deliver(rules, listener, [rules.with({ protocol: "empty" })]);
    // An export awaits its registry's round trips: the saves get event-loop turns to run in.
    for (let turn = 0; turn < 5; turn++) await nextTurn();
  }
  const writes = registry.cacheFile?.writes ?? 0;
  await registry.destroy();
  const onDisk = properties(readFileSync(file, "latin1"));
  assert.equal(onDisk.size, services);
  assert.match(
    onDisk.get("com.example.Service999") ?? "",
    /^empty:\/\/10\.0\.0\.1:20880\/com\.example\.Service999\?/,
  );
  assert.ok(
    writes < 20,
    `the file was replaced ${writes} times during 1 000 exports (coalesced saves expected)`,
  );
});
