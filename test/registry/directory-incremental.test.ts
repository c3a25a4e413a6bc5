// A provider list changing by one child among many, through a real ZooKeeper: only that child is
// decoded and referred, every other invoker is the same object with its state, and the removed
// child's invoker is destroyed.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EncodedUrlTemplate, type Protocol, silentLogger, Url } from "../../src/core/index.js";
import { RegistryDirectory } from "../../src/registry/directory/index.js";
import { createZookeeperRegistry } from "../../src/registry/zookeeper/zookeeper-registry.js";
import { FakeInvoker, waitFor } from "../../src/testing/index.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const fixture = useZooKeeper("dubbo-ts-incremental-");
const IFACE = "org.apache.dubbo.demo.IncrementalService";
const PROVIDERS = `/dubbo/${IFACE}/providers`;
const KNOWN = 40;

function providerNode(index: number): string {
  const url = Url.parse(
    `dubbo://10.9.0.${index}:20880/${IFACE}?application=p&interface=${IFACE}&methods=hi&side=provider&timestamp=${index}`,
  );
  return `${PROVIDERS}/${url.encode()}`;
}

/** A protocol of fake invokers that records every URL it was asked to refer. */
function recordingProtocol(): Protocol & { readonly referred: Url[] } {
  const referred: Url[] = [];
  return {
    name: "dubbo",
    defaultPort: 20880,
    referred,
    export: () => Promise.reject(new Error("this test protocol only refers")),
    refer: async (url) => {
      referred.push(url);
      return new FakeInvoker({ url });
    },
    destroy: async () => {},
  };
}

/**
 * Counts the names read while `work` runs: by `Url.decode`, or by a sibling's template (see
 * `EncodedUrlTemplate`) when it fits.
 */
async function countingDecodes(work: () => Promise<void>): Promise<number> {
  const decode = Url.decode;
  const templated = EncodedUrlTemplate.prototype.decode;
  let calls = 0;
  Url.decode = (encoded: string) => {
    calls += 1;
    return decode.call(Url, encoded);
  };
  EncodedUrlTemplate.prototype.decode = function (this: EncodedUrlTemplate, encoded: string) {
    const url = templated.call(this, encoded);
    if (url !== undefined) calls += 1;
    return url;
  };
  try {
    await work();
  } finally {
    Url.decode = decode;
    EncodedUrlTemplate.prototype.decode = templated;
  }
  return calls;
}

describe("registry directory, incremental", () => {
  test("registry directory, incremental - one child added then removed among 40: one decode, one refer, the rest kept with their state, the removed one destroyed", async () => {
    const { inspector, zk } = fixture;
    await inspector.mkdirp(PROVIDERS);
    for (let i = 0; i < KNOWN; i++) await inspector.create(providerNode(i), true);
    const registry = await createZookeeperRegistry(
      Url.parse(`zookeeper://${zk.connectString}?file.cache=false`),
      { logger: silentLogger },
    );
    fixture.cleanups.push(() => registry.destroy());
    const protocol = recordingProtocol();
    const consumerUrl = Url.parse(
      `consumer://127.0.0.1/${IFACE}?application=c&interface=${IFACE}&methods=hi&side=consumer`,
    );
    const directory = new RegistryDirectory({ consumerUrl, registry, protocol, logger: silentLogger });
    fixture.cleanups.push(() => directory.destroy());
    await directory.subscribe();
    assert.equal(directory.all().length, KNOWN);
    const before = [...directory.all()] as FakeInvoker[];
    before[0]!.latencyMs = 7; // state an invoker carries between calls

    const addDecodes = await countingDecodes(async () => {
      await inspector.create(providerNode(KNOWN), true);
      await waitFor("the new provider", () => directory.all().length === KNOWN + 1, 10_000);
      await directory.settled();
    });
    assert.equal(addDecodes, 1, "only the new child is decoded");
    assert.equal(protocol.referred.length, KNOWN + 1, "only the new provider is referred");
    const afterAdd = directory.all() as FakeInvoker[];
    for (const invoker of before) assert.ok(afterAdd.includes(invoker), `${invoker.address} kept`);
    assert.equal(before[0]!.latencyMs, 7);
    const added = afterAdd.find((i) => !before.includes(i))!;
    assert.equal(added.url.host, `10.9.0.${KNOWN}`);

    const removeDecodes = await countingDecodes(async () => {
      await inspector.remove(providerNode(KNOWN));
      await waitFor("the removal", () => directory.all().length === KNOWN, 10_000);
      await directory.settled();
    });
    assert.equal(removeDecodes, 0, "a removal decodes nothing");
    assert.equal(added.destroyed, true, "the removed child's invoker is destroyed");
    assert.deepEqual(directory.all(), before, "the others are the same objects, in the same order");
    assert.ok(before.every((i) => !i.destroyed));
  });
});
