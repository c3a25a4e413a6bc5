// The serialization of a dubbo call on the wire: a provider reads a body by its header's id and
// answers in the same id (checked byte for byte with a raw socket speaking fastjson, as a Java
// consumer with serialization=fastjson does), our consumer with serialization=fastjson round-trips
// through it, and an id nobody registered is answered BAD_REQUEST at once. As in Java 3.3, a
// provider reads only the serializations its service permits (`prefer.serialization`,
// `serialization`, hessian2) unless `serialization.security.check=false`.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { after, describe, it } from "node:test";
import { Code, defineService, java, RpcError, silentLogger, Url } from "../../core/index.js";
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

/** Serves Greeter with these URL parameters (default: permits fastjson as well as hessian2). */
async function serve(params = "prefer.serialization=fastjson,hessian2"): Promise<number> {
  const protocol = createDubboProtocol({ logger: silentLogger, shutdownWaitMs: 100 });
  protocols.push(protocol);
  const url = Url.parse(
    `dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}${params === "" ? "" : `&${params}`}`,
  );
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

  const greetInJson = () =>
    jsonLines("2.0.2", IFACE, "0.0.0", "greet", "Ljava/lang/String;I", "ada", 3, {
      path: IFACE,
      interface: IFACE,
    });

  it("wire - a provider refuses a body in a serialization its service does not permit, with Java 3.3's status and message", async () => {
    const port = await serve("");
    const answer = await exchangeRaw(port, 6, greetInJson());
    assert.equal(readStatus(answer), Status.BAD_REQUEST);
    const message = answer.subarray(16).toString();
    assert.match(
      message,
      /Unexpected serialization id:6 received from network, please check if the peer send the right id\./,
    );
    assert.match(
      message,
      /org\.example\.wire\.Greeter at 127\.0\.0\.1:\d+ permits hessian2 \(id 2\), not fastjson \(id 6\)/,
    );
  });

  it("wire - our consumer with serialization=fastjson to a provider that permits only hessian2 fails naming the setting", async () => {
    const port = await serve("");
    const consumer = createDubboProtocol({ logger: silentLogger });
    protocols.push(consumer);
    const url = Url.parse(
      `dubbo://127.0.0.1:${port}/${IFACE}?interface=${IFACE}&timeout=5000&serialization=fastjson`,
    );
    const stub = createStub(Greeter, await consumer.refer(url));
    await assert.rejects(
      stub.greet("bob", 2),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        /Unexpected serialization id:6.*prefer\.serialization/.test(e.message),
    );
  });

  it("wire - serialization permits what the service names; serialization.security.check=false reads every one", async () => {
    const named = await serve("serialization=fastjson");
    assert.equal(readStatus(await exchangeRaw(named, 6, greetInJson())), Status.OK);
    const unchecked = await serve("serialization.security.check=false");
    const answer = await exchangeRaw(unchecked, 6, greetInJson());
    assert.equal(readStatus(answer), Status.OK);
    assert.equal(answer.subarray(16).toString(), '4\n"hi ada x3"\n{"dubbo":"2.0.2"}\n');
  });
});
