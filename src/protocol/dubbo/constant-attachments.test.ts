// A reference encodes the attachments map of its calls once per method and timeout when the calls
// pass the same frozen record of scalars again and again (a generic stub's `{ generic }`, a plan's
// constants) and splices those bytes into each request; a record seen once (a context's snapshot,
// new on every call), one made per call, or one holding objects, is encoded with its request. The
// provider sees the same attachments either way.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import {
  type Attachments,
  createInvocation,
  defineService,
  ExtensionPoint,
  getRpcContext,
  java,
  silentLogger,
  Url,
} from "../../core/index.js";
import { createProviderInvoker } from "../../proxy/index.js";
import { createHessian2Serialization, type Serialization } from "../../serialize/index.js";
import { createDubboProtocol, type DubboInvoker, type DubboProtocol } from "./index.js";

const IFACE = "org.example.attach.Tenant";
const Tenant = defineService(IFACE, { whoAmI: { args: [], returns: java.String } });
const tenantService = { whoAmI: () => String(getRpcContext().getAttachment("tenant")) };

/** Attachment maps (they carry `interface`) the consumer's hessian2 encoded, per call or once. */
let attachmentMapsEncoded = 0;
/** Encoded attachment maps spliced into a request. */
let attachmentMapsSpliced = 0;

function countingHessian2(): Serialization {
  const hessian2 = createHessian2Serialization();
  return {
    ...hessian2,
    createOutput() {
      const output = hessian2.createOutput();
      return {
        writeValue(value, type, path) {
          if (typeof value === "object" && value !== null && "interface" in value) attachmentMapsEncoded += 1;
          output.writeValue(value, type, path);
        },
        writeMerged(records, path) {
          attachmentMapsEncoded += 1;
          output.writeMerged?.(records, path);
        },
        writeBytes(bytes) {
          if (Buffer.from(bytes).includes("interface")) attachmentMapsSpliced += 1;
          output.writeBytes(bytes);
        },
        finish: () => output.finish(),
        reset: () => output.reset(),
      };
    },
  };
}

const protocols: DubboProtocol[] = [];
after(async () => {
  await Promise.all(protocols.map((p) => p.destroy()));
});

async function referTenant(): Promise<DubboInvoker> {
  const provider = createDubboProtocol({ logger: silentLogger, shutdownWaitMs: 100 });
  protocols.push(provider);
  const exported = await provider.export(
    createProviderInvoker(
      Tenant,
      tenantService,
      Url.parse(`dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}`),
    ),
  );
  const consumer = createDubboProtocol({
    logger: silentLogger,
    serializations: new ExtensionPoint<Serialization>("serialization", "hessian2", [
      ["hessian2", countingHessian2()],
    ]),
  });
  protocols.push(consumer);
  return consumer.refer(
    Url.parse(`dubbo://127.0.0.1:${exported.url.port}/${IFACE}?interface=${IFACE}&timeout=5000`),
  );
}

/** `times` calls of whoAmI with the attachments `attachmentsOf(i)` gives; what the provider answered. */
async function callWith(invoker: DubboInvoker, times: number, attachmentsOf: (i: number) => Attachments) {
  const answers: unknown[] = [];
  for (let i = 0; i < times; i++) {
    const result = await invoker.invoke(
      createInvocation({
        service: IFACE,
        method: "whoAmI",
        parameterTypes: [],
        args: [],
        attachments: attachmentsOf(i),
      }),
    );
    answers.push(result.value);
  }
  return answers;
}

describe("constant attachments", () => {
  it("attachments - the same frozen record on every call is encoded apart once and spliced; a new one is encoded again", async () => {
    const invoker = await referTenant();
    const acme = Object.freeze({ tenant: "acme" });
    attachmentMapsEncoded = 0;
    attachmentMapsSpliced = 0;
    assert.deepEqual(await callWith(invoker, 5, () => acme), Array(5).fill("acme"));
    assert.equal(
      attachmentMapsEncoded,
      2,
      "the first call's with its request, then once for the four others",
    );
    assert.equal(attachmentMapsSpliced, 4);
    const globex = Object.freeze({ tenant: "globex" });
    assert.deepEqual(await callWith(invoker, 3, () => globex), Array(3).fill("globex"));
    assert.equal(attachmentMapsEncoded, 4, "another record, encoded the same way");
  });

  it("attachments - a frozen record new on every call (a context's snapshot) is written with its request, never encoded apart", async () => {
    const invoker = await referTenant();
    attachmentMapsEncoded = 0;
    attachmentMapsSpliced = 0;
    const answers = await callWith(invoker, 3, (i) => Object.freeze({ tenant: `s${i}` }));
    assert.deepEqual(answers, ["s0", "s1", "s2"]);
    assert.equal(attachmentMapsEncoded, 3);
    assert.equal(attachmentMapsSpliced, 0, "no encoding apart, no copy, no splice");
  });

  it("attachments - a record made per call, or one holding objects, is encoded with each request", async () => {
    const invoker = await referTenant();
    attachmentMapsEncoded = 0;
    const answers = await callWith(invoker, 3, (i) => ({ tenant: `t${i}` }));
    assert.deepEqual(answers, ["t0", "t1", "t2"]);
    assert.equal(attachmentMapsEncoded, 3);
    const nested = Object.freeze({ tenant: "n", meta: { deep: true } });
    await callWith(invoker, 2, () => nested);
    assert.equal(attachmentMapsEncoded, 5, "a map holding an object may take reference slots: never spliced");
  });
});
