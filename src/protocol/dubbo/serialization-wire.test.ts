// The serialization of a dubbo call on the wire: a provider reads a body by its header's id and
// answers in the same id (checked byte for byte with a raw socket speaking fastjson, as a Java
// consumer with serialization=fastjson does), our consumer with serialization=fastjson round-trips
// through it, and an id nobody registered is answered BAD_REQUEST at once.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { after, describe, it } from "node:test";
import { defineService, java, silentLogger, Url } from "../../core/index.js";
import { createProviderInvoker, createStub } from "../../proxy/index.js";
import { encodeHeader, FLAG_REQUEST, FLAG_TWOWAY, readFlags, readStatus, Status } from "./exchange/index.js";
import { createDubboProtocol, type DubboProtocol } from "./index.js";

const IFACE = "org.example.wire.Greeter";
const Greeter = defineService(IFACE, {
  greet: { args: [java.String, java.int], returns: java.String },
});
const greeter = { greet: (name: string, times: number) => `hi ${name} x${times}` };

const protocols: DubboProtocol[] = [];
after(async () => {
  await Promise.all(protocols.map((p) => p.destroy()));
});

async function serve(): Promise<number> {
  const protocol = createDubboProtocol({ logger: silentLogger, shutdownWaitMs: 100 });
  protocols.push(protocol);
  const url = Url.parse(`dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}`);
  const exporter = await protocol.export(createProviderInvoker(Greeter, greeter, url));
  return exporter.url.port;
}

/** Sends one two-way request frame with `serializationId` and `body`; resolves with the whole answer. */
async function exchangeRaw(port: number, serializationId: number, body: Buffer): Promise<Buffer> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(
    Buffer.concat([encodeHeader(FLAG_REQUEST | FLAG_TWOWAY | serializationId, 0, 1n, body.length), body]),
  );
  let received = Buffer.alloc(0);
  for await (const chunk of socket) {
    received = Buffer.concat([received, chunk as Buffer]);
    if (received.length >= 16 && received.length >= 16 + received.readUInt32BE(12)) break;
  }
  socket.destroy();
  return received;
}

const jsonLines = (...values: unknown[]) => Buffer.from(values.map((v) => `${JSON.stringify(v)}\n`).join(""));

describe("dubbo serializations on the wire", () => {
  it("wire - a fastjson request (id 6) is read as JSON and answered in JSON with id 6, as Java's CodecSupport does", async () => {
    const port = await serve();
    const request = jsonLines("2.0.2", IFACE, "0.0.0", "greet", "Ljava/lang/String;I", "ada", 3, {
      path: IFACE,
      interface: IFACE,
    });
    const answer = await exchangeRaw(port, 6, request);
    assert.equal(readFlags(answer) & 0x1f, 6, "the response header carries the request's serialization id");
    assert.equal(readStatus(answer), Status.OK);
    assert.equal(answer.subarray(16).toString(), '4\n"hi ada x3"\n{"dubbo":"2.0.2"}\n');
  });

  it("wire - an id the provider has no serialization for is answered BAD_REQUEST, naming it and the registered ones", async () => {
    const port = await serve();
    const answer = await exchangeRaw(port, 9, Buffer.from("whatever"));
    assert.equal(readStatus(answer), Status.BAD_REQUEST);
    assert.match(
      answer.subarray(16).toString(),
      /serialization id 9, which this provider does not have \(registered: hessian2 \(id 2\), fastjson \(id 6\)\)/,
    );
  });

  it("wire - our consumer with serialization=fastjson round-trips through our provider", async () => {
    const port = await serve();
    const consumer = createDubboProtocol({ logger: silentLogger });
    protocols.push(consumer);
    const url = Url.parse(
      `dubbo://127.0.0.1:${port}/${IFACE}?interface=${IFACE}&timeout=5000&serialization=fastjson`,
    );
    const stub = createStub(Greeter, await consumer.refer(url));
    assert.equal(await stub.greet("bob", 2), "hi bob x2");
    assert.equal(await stub.greet("cy", 1), "hi cy x1");
  });
});
