// A reference encodes the attachments map of its calls once per method and timeout when the calls
// pass the same frozen record of scalars again and again (a generic stub's `{ generic }`, a plan's
// constants) and splices those bytes into each request. A record seen once (a context's snapshot,
// new on every call), one made per call, or one holding objects, is written with its request: the
// reference's constant entries spliced from bytes encoded once per timeout, then the call's own.
// The provider sees the same attachments either way.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import {
  type Attachments,
  createInvocation,
  DEFAULT_SERVICE_VERSION,
  DUBBO_PROTOCOL_VERSION,
  defineService,
  ExtensionPoint,
  getRpcContext,
  java,
  silentLogger,
  Url,
} from "../../core/index.js";
import { createProviderInvoker } from "../../proxy/index.js";
import { createHessian2Serialization, type Serialization } from "../../serialize/index.js";
import { createSeededRandom } from "../../testing/seeded-random.js";
import { BodyOutputSlot } from "./codec/body-output.js";
import { encodeRequestBody, readRequestHead, readRequestTail } from "./codec/request-body.js";
import { createDubboProtocol, type DubboInvoker, type DubboProtocol } from "./index.js";

const IFACE = "org.example.attach.Tenant";
const Tenant = defineService(IFACE, { whoAmI: { args: [], returns: java.String } });
const tenantService = { whoAmI: () => String(getRpcContext().getAttachment("tenant")) };

/** Attachment maps (they carry `interface`) the consumer's hessian2 encoded, per call or once. */
let attachmentMapsEncoded = 0;
/** Encoded attachment maps (whole, or the constant entries) spliced into a request. */
let attachmentMapsSpliced = 0;
/** A copy of the last request frame the consumer's hessian2 finished. */
let lastFrame = Buffer.alloc(0);

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
        writeMerged(encoded, record, path) {
          attachmentMapsSpliced += 1;
          output.writeMerged?.(encoded, record, path);
        },
        writeBytes(bytes) {
          if (Buffer.from(bytes).includes("interface")) attachmentMapsSpliced += 1;
          output.writeBytes(bytes);
        },
        finish() {
          const body = output.finish();
          // A request frame: its header room is still blank when finished (the exchange fills it in).
          if (body.length > 16 && body.subarray(0, 16).every((byte) => byte === 0))
            lastFrame = Buffer.from(body);
          return body;
        },
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
      "the reference's constants at the first call (its own written after them), then the whole map once for the four others",
    );
    assert.equal(attachmentMapsSpliced, 5);
    const globex = Object.freeze({ tenant: "globex" });
    assert.deepEqual(await callWith(invoker, 3, () => globex), Array(3).fill("globex"));
    assert.equal(attachmentMapsEncoded, 3, "another record: its whole map once, the constants were already");
    assert.equal(attachmentMapsSpliced, 8);
  });

  it("attachments - a frozen record new on every call (a context's snapshot) is written after the spliced constant entries", async () => {
    const invoker = await referTenant();
    attachmentMapsEncoded = 0;
    attachmentMapsSpliced = 0;
    const answers = await callWith(invoker, 3, (i) => Object.freeze({ tenant: `s${i}` }));
    assert.deepEqual(answers, ["s0", "s1", "s2"]);
    assert.equal(attachmentMapsEncoded, 1, "the constant entries once, never the whole map per call");
    assert.equal(attachmentMapsSpliced, 3);
  });

  it("attachments - a record made per call, or one holding objects, is written with each request after the spliced constants", async () => {
    const invoker = await referTenant();
    attachmentMapsEncoded = 0;
    attachmentMapsSpliced = 0;
    const answers = await callWith(invoker, 3, (i) => ({ tenant: `t${i}` }));
    assert.deepEqual(answers, ["t0", "t1", "t2"]);
    const nested = Object.freeze({ tenant: "n", meta: { deep: true } });
    await callWith(invoker, 2, () => nested);
    assert.equal(
      attachmentMapsEncoded,
      1,
      "a map holding an object may take reference slots: never encoded apart whole",
    );
    assert.equal(attachmentMapsSpliced, 5);
  });

  it("attachments - own keys naming a constant one are merged as before (own over the reference's, the attempt's over own) and encoded whole", async () => {
    const invoker = await referTenant();
    attachmentMapsEncoded = 0;
    attachmentMapsSpliced = 0;
    await callWith(invoker, 2, (i) => ({ tenant: `c${i}`, path: "elsewhere" }));
    assert.equal(attachmentMapsEncoded, 2);
    assert.equal(attachmentMapsSpliced, 0);
  });

  it("attachments - seeded varied own records: each request is byte for byte the full encode of today's merge, and our provider reads that", async () => {
    const invoker = await referTenant();
    const reference = new BodyOutputSlot(createHessian2Serialization());
    const random = createSeededRandom(0x5eed14);
    const constants = { interface: IFACE, timeout: "5000", path: IFACE, version: DEFAULT_SERVICE_VERSION };
    let collisions = 0;
    for (let i = 0; i < 60; i++) {
      const own = ownRecord(random, i);
      const [answer] = await callWith(invoker, 1, () => own);
      if (Object.keys(own).some((key) => CONSTANT_KEYS.includes(key))) collisions++;
      assert.equal(answer, String(own.tenant), `call ${i}`);
      // Today's merge: own over `interface`, `timeout`/`path`/`version` over own. Without a
      // collision the splice writes the constant entries first, so the entries are in that order.
      // A `timeout` of the call's own is its attempt's timeout (then sent as the attempt's).
      const timeout = typeof own.timeout === "string" ? own.timeout : "5000";
      const collides = Object.keys(own).some((key) => key in constants);
      const merged = collides
        ? { interface: IFACE, ...own, timeout, path: IFACE, version: DEFAULT_SERVICE_VERSION }
        : { ...constants, ...own };
      const expected = encodeRequestBody(reference, {
        dubboVersion: DUBBO_PROTOCOL_VERSION,
        path: IFACE,
        version: DEFAULT_SERVICE_VERSION,
        method: "whoAmI",
        descriptor: "",
        parameterTypes: [],
        args: [],
        attachments: merged,
      });
      const sent = lastFrame.subarray(16);
      assert.equal(sent.toString("hex"), expected.toString("hex"), `call ${i}: ${JSON.stringify(own)}`);
      const read = attachmentsReadFrom(sent);
      assert.deepEqual(read, attachmentsReadFrom(expected), `call ${i}`);
      assert.deepEqual(Object.keys(read).sort(), Object.keys(merged).sort(), `call ${i}`);
      for (const [key, value] of Object.entries(merged)) {
        if (typeof value !== "object") assert.equal(read[key], value, `call ${i}: ${key}`);
      }
    }
    assert.ok(
      collisions > 3 && collisions < 30,
      `the seed names constant keys in some calls (${collisions})`,
    );
  });
});

/** The attachments our provider's codec reads from a request body. */
function attachmentsReadFrom(body: Buffer): Record<string, unknown> {
  const input = createHessian2Serialization().createInput(body);
  readRequestHead(input);
  return readRequestTail(input, []).attachments;
}

const OWN_KEYS = ["trace", "ключ", "emoji😀", "n", "flag", "meta"];
/** Keys the reference's or the attempt's attachments have too, named by fewer calls. */
const CONSTANT_KEYS = ["interface", "timeout", "path", "version"];

function ownValue(random: () => number, key: string, i: number): unknown {
  // The provider's own interface name (a stranger one would test the provider, not the splice), and
  // a valid timeout, since it is also the call's deadline.
  if (key === "interface") return IFACE;
  if (key === "timeout") return "4000";
  switch (Math.floor(random() * 6)) {
    case 0:
      return `v${i}-ünïcødé-😀`;
    case 1:
      return Math.floor(random() * 1e6) - 5e5;
    case 2:
      return random() * 1e3;
    case 3:
      return random() < 0.5;
    case 4:
      return { deep: `d${i}`, list: [1, "two"] };
    default:
      return "";
  }
}

/** Empty at times, frozen at times (as a context's snapshot is), naming a constant key at times. */
function ownRecord(random: () => number, i: number): Attachments {
  const own: Record<string, unknown> = {};
  if (i % 7 !== 3) {
    own.tenant = `t${i}`;
    for (const key of OWN_KEYS) if (random() < 0.4) own[key] = ownValue(random, key, i);
    for (const key of CONSTANT_KEYS) if (random() < 0.06) own[key] = ownValue(random, key, i);
  }
  return random() < 0.5 ? Object.freeze(own) : own;
}
