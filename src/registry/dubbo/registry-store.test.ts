import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Url } from "../../core/index.js";
import { RegistryStore } from "./registry-store.js";

const SERVICE = "com.example.DemoService";
const provider = (port: number, extra = "") =>
  `dubbo://10.0.0.1:${port}/${SERVICE}?interface=${SERVICE}&side=provider${extra}`;
const subscription = `consumer://10.0.0.9/${SERVICE}?interface=${SERVICE}&category=providers,configurators`;

function clockedStore(options: { recoveryMs?: number } = {}) {
  let now = 1_000_000;
  const store = new RegistryStore({ now: () => now, sweepMs: 60_000, ...options });
  return { store, advance: (ms: number) => (now += ms) };
}

/** The store's timers are unref'd (they must not keep a server alive); hold the loop open while awaiting. */
async function held<T>(promise: Promise<T>): Promise<T> {
  const keep = setInterval(() => {}, 1000);
  try {
    return await promise;
  } finally {
    clearInterval(keep);
  }
}

describe("embedded registry store", () => {
  test("embedded registry store - a client's URLs lapse with its lease; persistent ones and renewed ones stay", () => {
    const { store, advance } = clockedStore();
    store.register("a", provider(1), 1000);
    store.register("a", `override://0.0.0.0/${SERVICE}?category=configurators&dynamic=false&weight=5`, 1000);
    store.register("b", provider(2), 1000);
    advance(800);
    assert.equal(store.renew("b", 1000), true);
    advance(400);
    store.sweep();
    const left = store.lookup(subscription).map((u) => u.port);
    assert.deepEqual(left.sort(), [0, 2], "a's provider lapsed; its persistent rule and b's provider stay");
    assert.equal(store.renew("a", 1000), false, "a lapsed client is told it was forgotten");
    assert.equal(store.renew("a", 1000), true);
    store.close();
  });

  test("embedded registry store - a watch answers at once on another version, on a change, or after its wait", async () => {
    const { store } = clockedStore();
    const first = await store.watch("c", subscription, -1, 0);
    assert.deepEqual(first.urls, []);
    const waiting = store.watch("c", subscription, first.version, 10_000);
    store.register("p", provider(1), 5000);
    const changed = await waiting;
    assert.notEqual(changed.version, first.version);
    assert.deepEqual(
      changed.urls.map((u) => Url.parse(u).port),
      [1],
    );
    const quiet = await held(store.watch("c", subscription, changed.version, 20));
    assert.equal(quiet.version, changed.version, "nothing changed: same version after the wait");
    const unrelated = store.watch("c", subscription, changed.version, 10_000);
    store.register("p", `dubbo://10.0.0.1:1/com.example.Other?interface=com.example.Other`, 5000);
    store.unregister("p", provider(1));
    assert.deepEqual((await unrelated).urls, [], "only this service's change answers it");
    store.close();
  });

  test("embedded registry store - while recovering, a watch with an old version waits for a real change", async () => {
    const { store } = clockedStore({ recoveryMs: 60_000 });
    let answered = false;
    const waiting = store.watch("c", subscription, 42, 10_000).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(answered, false, "an empty list is not reported while providers may still re-register");
    store.register("p", provider(1), 5000);
    assert.equal((await waiting).urls.length, 1);
    store.close();
  });
});
