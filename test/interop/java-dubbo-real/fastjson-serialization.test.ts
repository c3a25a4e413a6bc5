// Our consumer calls a real Java Dubbo 2.7.23 provider whose protocol says serialization=fastjson
// (Dubbo's own FastJsonSerialization on Alibaba fastjson, id 6): our requests go out in our JSON
// serialization, Java reads them by the header's id and answers in it, and our consumer reads the
// answers, values, an exception and attachments both ways, in JSON. A counting wrapper around our
// fastjson serialization proves every body of the calls went through it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort } from "../../../scripts/zookeeper.mjs";
import { BizError, runWithRpcContext } from "../../../src/core/index.js";
import type { Plugin, Serialization } from "../../../src/extension.js";
import { createDubbo, type DubboApplication } from "../../../src/index.js";
import { BUILTIN_SERIALIZATIONS } from "../../../src/serialize/index.js";
import { InteropService } from "./interop-contract.js";
import { DUBBO_RELEASE, javaLocalHost, javaPeerClasspath, type PeerProcess, spawnPeer } from "./java-peer.js";
import type { InteropStub } from "./ts-consumer-cases.js";

const START_TIMEOUT_MS = 60_000;

/** Bodies our side wrote and read in fastjson. */
const used = { written: 0, read: 0 };

const fastjson = BUILTIN_SERIALIZATIONS.find(([name]) => name === "fastjson")![1];

const countingFastjson: Serialization = {
  id: fastjson.id,
  name: fastjson.name,
  createOutput() {
    const output = fastjson.createOutput();
    return {
      writeValue: (value, type, path) => output.writeValue(value, type, path),
      writeBytes: (bytes) => output.writeBytes(bytes),
      reset: () => output.reset(),
      finish() {
        used.written += 1;
        return output.finish();
      },
    };
  },
  createInput(bytes, offset) {
    used.read += 1;
    return fastjson.createInput(bytes, offset);
  },
};

const countingPlugin: Plugin = {
  name: "counting-fastjson",
  register: (points) => {
    points.serialization.register("fastjson", countingFastjson, { replace: true });
  },
};

describe(`our consumer to a Java Dubbo ${DUBBO_RELEASE["2.7"]} provider with serialization=fastjson`, () => {
  let provider: PeerProcess;
  let app: DubboApplication;
  let stub: InteropStub;

  before(async () => {
    const port = await freePort();
    provider = spawnPeer("2.7", "java-fastjson-provider", ["provider", "N/A", String(port)], {
      mainClass: "dubbots.interop.JavaDubboPeer",
      classpath: javaPeerClasspath("2.7"),
      properties: ["-Ddubbo.protocol.serialization=fastjson"],
    });
    const [host, ready] = await Promise.all([javaLocalHost(), provider.next(START_TIMEOUT_MS)]);
    assert.equal(ready, "READY", provider.log());
    app = await createDubbo({
      application: { name: "ts-fastjson-consumer" },
      env: false,
      plugins: [countingPlugin],
    });
    stub = await app.refer(InteropService, {
      url: `dubbo://${host}:${port}?serialization=fastjson`,
      timeoutMs: 10_000,
    });
  });

  after(async () => {
    await app?.stop();
    await provider?.stop();
  });

  it("java fastjson - strings, ints, arrays and a POJO go out and come back in JSON", async () => {
    const before = { ...used };
    assert.equal(await stub.echoString("héllo, 世界"), "héllo, 世界");
    assert.equal(await stub.echoInt(-42), -42);
    assert.deepEqual(await stub.echoInts([1, 2, 3]), [1, 2, 3]);
    // JSON has no Java types: the POJO comes back as its fields, its long as a number.
    const user: Record<string, unknown> = {
      ...(await stub.echoUser({ id: 7n, name: "ada", tags: ["x", "y"] })),
    };
    assert.deepEqual(user, { id: 7, name: "ada", tags: ["x", "y"] });
    // Four calls: four requests written and four responses read in fastjson (plus the encoded-once parts).
    assert.ok(
      used.written - before.written >= 4,
      `bodies written in fastjson: ${used.written - before.written}`,
    );
    assert.equal(used.read - before.read, 4, "every response came back in fastjson");
  });

  it("java fastjson - the provider's exception reaches us as a BizError with its Java class (fastjson's @type) and message", async () => {
    await assert.rejects(
      stub.fail("broken"),
      (e: unknown) =>
        e instanceof BizError && e.javaClass === "java.lang.IllegalStateException" && e.message === "broken",
    );
  });

  it("java fastjson - attachments travel both ways", async () => {
    const answer = await runWithRpcContext(async (context) => {
      context.setAttachment("req", "ping");
      const received = await stub.attachment("req");
      return { received, replied: context.getReceivedAttachment("reply") };
    });
    assert.deepEqual(answer, { received: "ping", replied: "pong-ping" });
  });
});
