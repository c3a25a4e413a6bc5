import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { createInvocation, type Invoker, java, RpcStatusTable, Url } from "../../core/index.js";
import { createFakeInvokers, createSeededRandom, FakeInvoker } from "../../testing/index.js";
import { createConsistentHashLoadBalance } from "./consistent-hash.js";
import { createLeastActiveLoadBalance } from "./least-active.js";
import { createRandomLoadBalance } from "./random.js";
import { createRoundRobinLoadBalance } from "./round-robin.js";
import { createShortestResponseLoadBalance } from "./shortest-response.js";
import { loadBalanceName, warmupWeight, weightOf } from "./weight.js";

const consumer = Url.parse("consumer://127.0.0.1/com.example.DemoService");
const inv = createInvocation({ service: "com.example.DemoService", method: "sayHello", args: ["x"] });

function weighted(weights: readonly number[]): FakeInvoker[] {
  return weights.map((w, i) => new FakeInvoker({ address: `127.0.0.1:${20880 + i}`, params: { weight: w } }));
}

function shares(invokers: readonly Invoker[], picks: readonly Invoker[]): number[] {
  return invokers.map((i) => picks.filter((p) => p === i).length / picks.length);
}

const SAMPLES = 20_000;
// With 20k samples the standard error of a share is under 0.004; 0.02 is five of them.
const TOLERANCE = 0.02;

describe("loadbalance", () => {
  it("random - follows weights 1:2:3 within 2 points", () => {
    const invokers = weighted([100, 200, 300]);
    const lb = createRandomLoadBalance(createSeededRandom(7));
    const picks = Array.from({ length: SAMPLES }, () => lb.select(invokers, consumer, inv));
    const got = shares(invokers, picks);
    for (const [i, want] of [1 / 6, 2 / 6, 3 / 6].entries()) {
      assert.ok(Math.abs(got[i]! - want) < TOLERANCE, `${got}`);
    }
  });

  it("random - is uniform when weights are equal", () => {
    const invokers = createFakeInvokers(4);
    const lb = createRandomLoadBalance(createSeededRandom(11));
    const got = shares(
      invokers,
      Array.from({ length: SAMPLES }, () => lb.select(invokers, consumer, inv)),
    );
    for (const share of got) assert.ok(Math.abs(share - 0.25) < TOLERANCE, `${got}`);
  });

  it("random - never picks a zero-weight provider among weighted ones", () => {
    const invokers = weighted([0, 100]);
    const lb = createRandomLoadBalance(createSeededRandom(3));
    for (let i = 0; i < 1000; i++) assert.equal(lb.select(invokers, consumer, inv), invokers[1]);
  });

  it("roundrobin - weights 1,2,3 give Dubbo's smooth sequence C B A C B C", () => {
    // Worked by hand from the smooth-WRR rule (add weights, take the largest current, first on
    // ties, subtract the total 6): currents (A,B,C) go 1,2,3→C; 2,4,0→B; 3,0,3→A; -2,2,6→C;
    // -1,4,3→B; 0,0,6→C, and then all are back to zero.
    const [a, b, c] = weighted([1, 2, 3]);
    const invokers = [a!, b!, c!];
    const lb = createRoundRobinLoadBalance();
    const names = new Map<Invoker, string>([
      [a!, "A"],
      [b!, "B"],
      [c!, "C"],
    ]);
    const seq = Array.from({ length: 12 }, () => names.get(lb.select(invokers, consumer, inv))).join("");
    assert.equal(seq, "CBACBCCBACBC");
  });

  it("roundrobin - keeps separate state per method and drops state of vanished providers", () => {
    let clock = 1_000_000;
    const lb = createRoundRobinLoadBalance(() => clock);
    const [a, b, c] = weighted([1, 2, 3]);
    const other = { ...inv, method: "other" };
    assert.equal(lb.select([a!, b!, c!], consumer, inv), c);
    assert.equal(lb.select([a!, b!, c!], consumer, other), c, "a new method starts from scratch");
    clock += 61_000; // c vanishes for more than a minute: its state is recycled
    lb.select([a!, b!], consumer, inv);
    const back = Array.from({ length: 6 }, () => lb.select([a!, b!, c!], consumer, inv));
    assert.equal(back.filter((x) => x === c).length, 3, "c gets its full share again");
  });

  it("leastactive - picks the provider with the fewest calls in flight", () => {
    const status = new RpcStatusTable();
    const invokers = createFakeInvokers(3);
    status.begin(invokers[0]!.url, "sayHello");
    status.begin(invokers[0]!.url, "sayHello");
    status.begin(invokers[2]!.url, "sayHello");
    const lb = createLeastActiveLoadBalance(status, createSeededRandom(1));
    for (let i = 0; i < 100; i++) assert.equal(lb.select(invokers, consumer, inv), invokers[1]);
  });

  it("leastactive - breaks ties by weight (1:3 within 2 points)", () => {
    const status = new RpcStatusTable();
    const invokers = weighted([100, 300, 100]);
    status.begin(invokers[2]!.url, "sayHello");
    const lb = createLeastActiveLoadBalance(status, createSeededRandom(5));
    const got = shares(
      invokers,
      Array.from({ length: SAMPLES }, () => lb.select(invokers, consumer, inv)),
    );
    assert.equal(got[2], 0);
    assert.ok(Math.abs(got[0]! - 0.25) < TOLERANCE, `${got}`);
  });

  it("shortestresponse - prefers the lowest mean time × active calls", () => {
    const status = new RpcStatusTable();
    const invokers = createFakeInvokers(2);
    const slow = status.begin(invokers[0]!.url, "sayHello");
    RpcStatusTable.end(slow, 100, true);
    status.begin(invokers[0]!.url, "sayHello");
    const fast = status.begin(invokers[1]!.url, "sayHello");
    RpcStatusTable.end(fast, 10, true);
    status.begin(invokers[1]!.url, "sayHello");
    const lb = createShortestResponseLoadBalance(status, createSeededRandom(2));
    for (let i = 0; i < 50; i++) assert.equal(lb.select(invokers, consumer, inv), invokers[1]);
  });

  it("warmup - ramps linearly as Java's calculateWarmupWeight, at least 1", () => {
    assert.equal(warmupWeight(60_000, 600_000, 100), 10);
    assert.equal(warmupWeight(300_000, 600_000, 100), 50);
    assert.equal(warmupWeight(1000, 600_000, 100), 1);
    assert.equal(warmupWeight(599_999, 600_000, 100), 99);
    const now = 10_000_000;
    const young = new FakeInvoker({ params: { timestamp: now - 120_000, warmup: 600_000, weight: 200 } });
    assert.equal(weightOf(young, "sayHello", now), 40);
    const future = new FakeInvoker({ params: { timestamp: now + 5000 } });
    assert.equal(weightOf(future, "sayHello", now), 1);
    const old = new FakeInvoker({ params: { timestamp: now - 700_000 } });
    assert.equal(weightOf(old, "sayHello", now), 100);
  });

  it("warmup - a warming provider gets a proportionally smaller share from random", () => {
    const now = Date.now();
    const invokers = [
      new FakeInvoker({ address: "127.0.0.1:1", params: { timestamp: now - 6_000_000 } }),
      new FakeInvoker({ address: "127.0.0.1:2", params: { timestamp: now - 150_000, warmup: 600_000 } }),
    ];
    const lb = createRandomLoadBalance(createSeededRandom(9));
    const got = shares(
      invokers,
      Array.from({ length: SAMPLES }, () => lb.select(invokers, consumer, inv)),
    );
    // weights 100 and 25 → 0.2 for the warming one
    assert.ok(Math.abs(got[1]! - 0.2) < TOLERANCE, `${got}`);
  });

  it("loadBalanceName - consumer method setting, then reference, then provider, then random", () => {
    const url = consumer.withParams({ loadbalance: "roundrobin", "find.loadbalance": "leastactive" });
    assert.equal(loadBalanceName(url, "find"), "leastactive");
    assert.equal(loadBalanceName(url, "other"), "roundrobin");
    assert.equal(
      loadBalanceName(consumer, "x", Url.parse("dubbo://h:1/s?loadbalance=consistenthash")),
      "consistenthash",
    );
    assert.equal(loadBalanceName(consumer, "x"), "random");
  });
});

describe("loadbalance - consistenthash", () => {
  const call = (arg: unknown) => ({ ...inv, args: [arg] });

  it("consistenthash - picks the provider Java's ketama ring picks (golden)", () => {
    // Expected values computed independently with node:crypto: md5("hello") starts 5d 41 40 2a,
    // read little-endian that is 0x2a40415d = 708854109; the first ring point at or after it,
    // among md5("127.0.0.1:2088x" + i) for i < 40 (160 nodes / 4) split in four little-endian
    // words, is 720646662, owned by 127.0.0.1:20882. "dubbo" hashes to 2350599850 and lands on
    // 2357648479, owned by 127.0.0.1:20880.
    const invokers = createFakeInvokers(3);
    const lb = createConsistentHashLoadBalance();
    assert.equal(lb.select(invokers, consumer, call("hello")).url.address, "127.0.0.1:20882");
    assert.equal(lb.select(invokers, consumer, call("dubbo")).url.address, "127.0.0.1:20880");
    assert.equal(lb.select(invokers, consumer, call(42)).url.address, "127.0.0.1:20882");
  });

  it("consistenthash - agrees with a brute-force ring on 500 keys", () => {
    const invokers = createFakeInvokers(5);
    const points: Array<[number, string]> = [];
    for (const i of invokers) {
      for (let r = 0; r < 40; r++) {
        const d = createHash("md5").update(`${i.url.address}${r}`).digest();
        for (let h = 0; h < 4; h++) points.push([d.readUInt32LE(h * 4), i.url.address]);
      }
    }
    const lb = createConsistentHashLoadBalance();
    for (let k = 0; k < 500; k++) {
      const key = `user-${k}`;
      const hash = createHash("md5").update(key).digest().readUInt32LE(0);
      const ahead = points.filter(([p]) => p >= hash).sort((x, y) => x[0] - y[0]);
      const want = (ahead[0] ?? [...points].sort((x, y) => x[0] - y[0])[0]!)[1];
      assert.equal(lb.select(invokers, consumer, call(key)).url.address, want, key);
    }
  });

  it("consistenthash - remaps about 1/n of keys when one of n providers leaves", () => {
    const invokers = createFakeInvokers(5);
    const lb = createConsistentHashLoadBalance();
    const keys = Array.from({ length: 2000 }, (_, k) => `order-${k}`);
    const before = keys.map((k) => lb.select(invokers, consumer, call(k)));
    const gone = invokers[2]!;
    const after = keys.map((k) =>
      lb.select(
        invokers.filter((i) => i !== gone),
        consumer,
        call(k),
      ),
    );
    let moved = 0;
    keys.forEach((_, i) => {
      if (before[i] !== after[i]) {
        moved++;
        assert.equal(before[i], gone, "only keys of the departed provider move");
      }
    });
    assert.ok(moved / keys.length > 0.1 && moved / keys.length < 0.3, `moved ${moved}`);
  });

  it("consistenthash - hash.arguments chooses the arguments, and doubles print as Java", () => {
    const invokers = createFakeInvokers(3);
    const lb = createConsistentHashLoadBalance();
    const url = consumer.withParams({ "hash.arguments": "1" });
    const a = lb.select(invokers, url, { ...inv, args: ["x", "hello"] });
    const b = lb.select(invokers, url, { ...inv, args: ["y", "hello"] });
    assert.equal(a, b);
    assert.equal(a.url.address, "127.0.0.1:20882");
    const d = { ...inv, args: [1], parameterTypes: [java.double] };
    const s = { ...inv, args: ["1.0"], parameterTypes: [java.String] };
    assert.equal(lb.select(invokers, consumer, d), lb.select(invokers, consumer, s));
  });
});
