import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { silentLogger, Url } from "../core/index.js";
import { waitFor } from "../testing/index.js";
import { FailbackRegistry } from "./failback-registry.js";
import type { NotifyListener, RegistryLogger } from "./registry.js";

const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-failback-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const logger: RegistryLogger = silentLogger;
let n = 0;

/** A registry whose remote side fails the next `failures` calls of each operation, then works. */
class FlakyRegistry extends FailbackRegistry {
  readonly calls: string[] = [];
  readonly failures = new Map<string, number>();
  readonly remote = new Set<string>();
  readonly providers: Url[] = [];

  isAvailable(): boolean {
    return true;
  }

  #maybeFail(op: string, url: Url): void {
    this.calls.push(`${op} ${url.port}`);
    const left = this.failures.get(op) ?? 0;
    if (left > 0) {
      this.failures.set(op, left - 1);
      throw new Error(`${op} refused`);
    }
  }

  protected async doRegister(url: Url): Promise<void> {
    this.#maybeFail("register", url);
    this.remote.add(url.toFullString());
  }

  protected async doUnregister(url: Url): Promise<void> {
    this.#maybeFail("unregister", url);
    this.remote.delete(url.toFullString());
  }

  protected async doSubscribe(url: Url, listener: NotifyListener): Promise<void> {
    this.#maybeFail("subscribe", url);
    this.notify(
      url,
      listener,
      this.providers.length > 0 ? this.providers : [url.with({ protocol: "empty" })],
    );
  }

  protected async doUnsubscribe(url: Url): Promise<void> {
    this.#maybeFail("unsubscribe", url);
  }

  push(url: Url, listener: NotifyListener, urls: Url[]): void {
    this.notify(url, listener, urls);
  }
}

function registryUrl(params: Record<string, string | number> = {}): Url {
  n += 1;
  return Url.parse("flaky://127.0.0.1:1").withParams({
    file: join(dir, `f${n}.cache`),
    "retry.period": 20,
    "retry.times": 10,
    ...params,
  });
}

const provider = (port: number) => Url.parse(`dubbo://10.0.0.5:${port}/com.foo.Demo?interface=com.foo.Demo`);
const subscription = Url.parse("consumer://10.0.0.1/com.foo.Demo?interface=com.foo.Demo&category=providers");

test("failback registry - a failed register is retried until it succeeds (check=false)", async () => {
  const registry = new FlakyRegistry(registryUrl({ check: "false" }), { logger });
  registry.failures.set("register", 3);
  await registry.register(provider(1));
  assert.equal(registry.remote.size, 0);
  assert.deepEqual(registry.pendingRetries(), [`register ${provider(1).toString()}`]);
  await waitFor("the retry", () => registry.remote.size === 1);
  assert.equal(registry.calls.filter((c) => c === "register 1").length, 4);
  assert.deepEqual(registry.pendingRetries(), []);
  await registry.destroy();
});

test("failback registry - check=true (default) rejects at start and remembers nothing", async () => {
  const registry = new FlakyRegistry(registryUrl(), { logger });
  registry.failures.set("register", 1);
  await assert.rejects(registry.register(provider(1)), /failed to register com\.foo\.Demo.*check=false/);
  assert.deepEqual(registry.registered(), []);
  assert.deepEqual(registry.pendingRetries(), []);
  registry.failures.set("subscribe", 1);
  await assert.rejects(
    registry.subscribe(subscription, () => {}),
    /failed to subscribe/,
  );
  assert.deepEqual(registry.subscribed(), []);
  await registry.destroy();
});

test("failback registry - a newer operation cancels the pending one it supersedes", async () => {
  const registry = new FlakyRegistry(registryUrl({ check: "false", "retry.period": 60_000 }), { logger });
  registry.failures.set("register", 1);
  await registry.register(provider(1));
  assert.equal(registry.pendingRetries().length, 1);
  await registry.unregister(provider(1));
  assert.deepEqual(registry.pendingRetries(), [], "the unregister cancelled the pending register");
  registry.failures.set("unregister", 1);
  await registry.register(provider(2));
  await registry.unregister(provider(2));
  assert.deepEqual(registry.pendingRetries(), [`unregister ${provider(2).toString()}`]);
  await registry.register(provider(2));
  assert.deepEqual(registry.pendingRetries(), [], "the register cancelled the pending unregister");
  await registry.destroy();
});

test("failback registry - retries stop after retry.times", async () => {
  const registry = new FlakyRegistry(registryUrl({ check: "false", "retry.times": 2 }), { logger });
  registry.failures.set("register", 100);
  await registry.register(provider(1));
  await waitFor("giving up", () => registry.pendingRetries().length === 0);
  assert.equal(registry.calls.length, 3, "one attempt and two retries");
  await registry.destroy();
});

test("failback registry - a listener that throws is notified again with the latest lists", async () => {
  const registry = new FlakyRegistry(registryUrl({ check: "false" }), { logger });
  registry.providers.push(provider(1));
  const seen: number[][] = [];
  let failuresLeft = 2;
  const listener: NotifyListener = (urls) => {
    if (failuresLeft-- > 0) throw new Error("listener busy");
    seen.push(urls.map((u) => u.port));
  };
  await registry.subscribe(subscription, listener);
  registry.push(subscription, listener, [provider(1), provider(2)]);
  await waitFor("a successful delivery", () => seen.length > 0);
  assert.deepEqual(seen.at(-1), [1, 2]);
  await registry.destroy();
});

test("failback registry - a failed subscribe notifies the cached lists, then recovers", async () => {
  const url = registryUrl({ check: "false" });
  const warm = new FlakyRegistry(url, { logger });
  warm.providers.push(provider(7));
  await warm.subscribe(subscription, () => {});
  await warm.destroy();

  const cold = new FlakyRegistry(url, { logger });
  cold.failures.set("subscribe", 2);
  cold.providers.push(provider(8));
  const seen: number[][] = [];
  // check=true on the subscription: the cache makes the failure non-fatal.
  await cold.subscribe(subscription.withParams({ check: "true" }), (urls) =>
    seen.push(urls.map((u) => u.port)),
  );
  assert.deepEqual(seen, [[7]], "served from the cache file before subscribe resolved");
  await waitFor("the live list", () => seen.length === 2);
  assert.deepEqual(seen[1], [8]);
  await cold.destroy();
});

test("failback registry - file.cache=false writes no file; recover re-registers and re-subscribes", async () => {
  const url = registryUrl({ "file.cache": "false" });
  const registry = new FlakyRegistry(url, { logger });
  assert.equal(registry.cacheFile, undefined);
  await registry.register(provider(1));
  let notified = 0;
  await registry.subscribe(subscription, () => notified++);
  registry.remote.clear();
  await registry.recover();
  assert.equal(registry.remote.size, 1);
  assert.equal(notified, 2);
  await registry.destroy();
  assert.equal(registry.remote.size, 0, "destroy unregisters dynamic URLs");
  assert.equal(existsSync(url.get("file") ?? ""), false);
  await assert.rejects(registry.register(provider(1)), /destroyed/);
});
