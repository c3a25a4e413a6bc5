// Arguments at a real provider process over real sockets. `$echo` answers a value as the Java type
// it came as. A provider never runs a handler on arguments of the wrong type, and a frame built from shared
// back-references (40 levels of [x, ref x]: a few hundred bytes, 2^40 leaves when expanded) costs
// the provider its size, not its expansion: refused or echoed at once, while another connection
// is answered. Real provider process, real sockets.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, describe, it } from "node:test";
import { java, silentLogger, Url } from "../../src/core/index.js";
import { encodeHeader, FLAG_REQUEST, FLAG_TWOWAY } from "../../src/protocol/dubbo/exchange/header.js";
import { HEADER_LENGTH } from "../../src/protocol/dubbo/framing/frame.js";
import { createDubboProtocol, type DubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createStub } from "../../src/proxy/index.js";
import { Hessian2Reader, Hessian2Writer } from "../../src/serialize/hessian2/index.js";
import { FaultService } from "./fixtures/fault-service.js";
import { type ProviderProcess, spawnProvider } from "./spawn-provider.js";

const HESSIAN2 = 2;
const children: ProviderProcess[] = [];
const protocols: DubboProtocol[] = [];

after(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(protocols.map((p) => p.destroy()));
});

/** 40 levels of [x, ref x]: each list's second element is a back-reference to its first. */
function sharedGraph(levels = 40): unknown {
  let x: unknown = "leaf";
  for (let i = 0; i < levels; i++) x = [x, x];
  return x;
}

/** A two-way request frame: the head fields, the arguments' bytes as given, empty attachments. */
function requestFrameWithBody(method: string, descriptor: string, encodedArgs: Uint8Array): Buffer {
  const writer = new Hessian2Writer();
  for (const field of ["2.0.2", "demo.FaultService", "0.0.0", method, descriptor]) writer.writeValue(field);
  const body = Buffer.concat([writer.toBuffer(), encodedArgs, Buffer.from("485a", "hex")]);
  return Buffer.concat([encodeHeader(FLAG_REQUEST | FLAG_TWOWAY | HESSIAN2, 0, 1n, body.length), body]);
}

function requestFrame(method: string, descriptor: string, args: readonly unknown[]): Buffer {
  const writer = new Hessian2Writer();
  for (const arg of args) writer.writeValue(arg);
  return requestFrameWithBody(method, descriptor, writer.toBuffer());
}

interface Reply {
  readonly status: number;
  readonly body: Buffer;
}

/** Sends one frame on its own connection and resolves with the response (bounded by `ms`). */
function exchange(port: number, frame: Buffer, ms = 10_000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no response within ${ms} ms`));
    }, ms);
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length < HEADER_LENGTH) return;
      const length = data.readUInt32BE(12);
      if (data.length < HEADER_LENGTH + length) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: data[3]!, body: data.subarray(HEADER_LENGTH, HEADER_LENGTH + length) });
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(frame);
  });
}

function errorText(reply: Reply): string {
  return String(new Hessian2Reader(reply.body).readValue());
}

async function provider(): Promise<ProviderProcess> {
  const p = await spawnProvider();
  children.push(p);
  return p;
}

async function stubFor(port: number) {
  const protocol = createDubboProtocol({ logger: silentLogger });
  protocols.push(protocol);
  const url = Url.parse(
    `dubbo://127.0.0.1:${port}/demo.FaultService?interface=demo.FaultService&timeout=10000`,
  );
  return createStub(FaultService, await protocol.refer(url));
}

describe("hostile arguments (real provider process)", () => {
  it("fault - a shared-graph list where String is declared is refused with status 40, and another connection is answered meanwhile", async () => {
    const p = await provider();
    const frame = requestFrame("sayHello", "Ljava/lang/String;", [sharedGraph()]);
    assert.ok(frame.length < 400, `the hostile frame is small (${frame.length} bytes)`);
    const stub = await stubFor(p.port);
    const [hostile, other] = await Promise.all([exchange(p.port, frame), stub.sayHello("other")]);
    assert.equal(other, "Hello other");
    assert.equal(hostile.status, 40, "BAD_REQUEST");
    assert.match(
      errorText(hostile),
      /sayHello\(java\.lang\.String\): args\[0\] is a list of 2, not java\.lang\.String/,
    );
    assert.match(errorText(hostile), /did not run/);
  });

  it("fault - a map where String is declared is refused, never answered 'Hello [object Map]'", async () => {
    const p = await provider();
    const reply = await exchange(
      p.port,
      requestFrame("sayHello", "Ljava/lang/String;", [new Map([["a", 1]])]),
    );
    assert.equal(reply.status, 40);
    assert.match(errorText(reply), /args\[0\] is a map of 1, not java\.lang\.String/);
  });

  it("echo - a Long, a whole Double and a BigDecimal come back as the Java types they were sent as", async () => {
    const p = await provider();
    const sentAsJavaWrote = [
      "e5", // Long 5 (not the Integer 0x95)
      "5c", // Double 1.0 (not the Integer 0x91)
      "4c0020000000000000", // Long 2^53 (not a Double)
    ];
    for (const sent of sentAsJavaWrote) {
      const reply = await exchange(
        p.port,
        requestFrameWithBody("$echo", "Ljava/lang/Object;", Buffer.from(sent, "hex")),
      );
      assert.equal(reply.status, 20);
      // After the response kind (0x94: value with attachments), the echoed value as Java wrote it.
      assert.equal(reply.body.subarray(1, 1 + sent.length / 2).toString("hex"), sent, `echo of ${sent}`);
    }
    const decimal = new Hessian2Writer().writeValue("100.06", java.BigDecimal).toBuffer();
    const reply = await exchange(p.port, requestFrameWithBody("$echo", "Ljava/lang/Object;", decimal));
    assert.deepEqual(
      reply.body.subarray(1, 1 + decimal.length),
      decimal,
      'a BigDecimal, not the String "100.06"',
    );
  });

  it("fault - $echo of the shared graph answers it at once, shared nodes still shared", async () => {
    const p = await provider();
    const frame = requestFrame("$echo", "Ljava/lang/Object;", [sharedGraph()]);
    const reply = await exchange(p.port, frame);
    assert.equal(reply.status, 20);
    assert.ok(reply.body.length < 400, `the echo is as small as the request (${reply.body.length} bytes)`);
    const reader = new Hessian2Reader(reply.body);
    assert.equal(reader.readValue(), 4, "RESPONSE_VALUE_WITH_ATTACHMENTS");
    let node = reader.readValue() as unknown[];
    for (let i = 0; i < 40; i++) {
      assert.equal(node[0], node[1], `level ${i} keeps its shared reference`);
      node = node[0] as unknown[];
    }
    assert.equal(node, "leaf");
  });

  it("fault - a generic $invoke with the shared graph for a String parameter is refused at once", async () => {
    const p = await provider();
    const frame = requestFrame("$invoke", "Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/Object;", [
      "sayHello",
      sharedGraph(),
      [sharedGraph()],
    ]);
    const stub = await stubFor(p.port);
    const [hostile, other] = await Promise.all([exchange(p.port, frame), stub.sayHello("other")]);
    assert.equal(other, "Hello other");
    assert.match(
      errorText(hostile),
      /parameter types \[a list of 2, a list of 2\] do not match demo\.FaultService\.sayHello\(java\.lang\.String\)/,
    );
  });
});
