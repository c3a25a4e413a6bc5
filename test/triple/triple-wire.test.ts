// What our Triple provider puts on the wire, read with a bare node:http2 client: the status of
// each kind of failure (trailers-only or after headers), a business exception marked by
// tri-exception-code as Java marks it, gzip answered with gzip, and Java 3.3's check of the
// serialization a request wrapper names.
import assert from "node:assert/strict";
import { connect, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http2";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { BizError, defineService, java } from "../../src/index.js";
import { decodeResponseWrapper, encodeRequestWrapper } from "../../src/protocol/triple/wrapper-codec.js";
import { decodeHessian, encodeHessian } from "../../src/serialize/index.js";
import { triApps } from "./tri-apps.js";

const IFACE = "org.apache.dubbo.demo.WireService";
const Wire = defineService(IFACE, {
  greet: { args: [java.String], returns: java.String },
  refuse: { args: [java.String], returns: java.String },
});

const apps = triApps();
let address: string;

before(async () => {
  const app = await apps.provider("wire-provider");
  const exporter = await app.export(
    Wire,
    {
      greet: (name) => `hi ${name}`,
      refuse: () => {
        throw new BizError("no way", { javaClass: "java.lang.IllegalArgumentException" });
      },
    },
    { scope: "remote" },
  );
  address = exporter.urls[0]!.address;
});

after(() => apps.stopAll());

interface Exchange {
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
  readonly body: Buffer;
}

function frame(payload: Uint8Array, compressed = false): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out[0] = compressed ? 1 : 0;
  out.writeUInt32BE(payload.length, 1);
  out.set(payload, 5);
  return out;
}

function exchange(headers: OutgoingHttpHeaders, body: Buffer): Promise<Exchange> {
  const session = connect(`http://${address}`);
  return new Promise<Exchange>((resolve, reject) => {
    const stream = session.request({
      ":method": "POST",
      "content-type": "application/grpc+proto",
      te: "trailers",
      ...headers,
    });
    let responseHeaders: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => {
      responseHeaders = h;
    });
    stream.on("trailers", (t) => {
      trailers = t;
    });
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("error", reject);
    stream.on("close", () => {
      session.close();
      resolve({ headers: responseHeaders, trailers, body: Buffer.concat(chunks) });
    });
    stream.end(body);
  });
}

const greetRequest = (name: string) =>
  frame(
    encodeRequestWrapper({
      serializeType: "hessian4",
      args: [encodeHessian(name, java.String)],
      argTypes: ["java.lang.String"],
    }),
  );

describe("triple on the wire", () => {
  test("wire - a call answers one wrapped message, the return type named, then grpc-status 0 in the trailers", async () => {
    const reply = await exchange({ ":path": `/${IFACE}/greet` }, greetRequest("bob"));
    assert.equal(reply.headers[":status"], 200);
    assert.equal(reply.headers["content-type"], "application/grpc+proto");
    assert.equal(reply.trailers["grpc-status"], "0");
    assert.equal(reply.body[0], 0, "not compressed");
    const wrapper = decodeResponseWrapper(reply.body.subarray(5));
    assert.equal(wrapper.serializeType, "hessian4");
    assert.equal(wrapper.type, "java.lang.String");
    assert.equal(decodeHessian(wrapper.data!), "hi bob");
  });

  test("wire - a business exception is a message marked tri-exception-code 3, with status 0", async () => {
    const body = frame(
      encodeRequestWrapper({
        serializeType: "hessian4",
        args: [encodeHessian("x", java.String)],
        argTypes: ["java.lang.String"],
      }),
    );
    const reply = await exchange({ ":path": `/${IFACE}/refuse` }, body);
    assert.equal(reply.headers["tri-exception-code"], "3");
    assert.equal(reply.trailers["grpc-status"], "0");
    const wrapper = decodeResponseWrapper(reply.body.subarray(5));
    const exception = decodeHessian(wrapper.data!);
    assert.ok(exception instanceof BizError);
    assert.equal(exception.javaClass, "java.lang.IllegalArgumentException");
  });

  test("wire - gzip in, gzip out when the caller accepts it", async () => {
    const payload = encodeRequestWrapper({
      serializeType: "hessian4",
      args: [encodeHessian("zip", java.String)],
      argTypes: ["java.lang.String"],
    });
    const zipped = await promisify(gzip)(payload);
    const reply = await exchange(
      { ":path": `/${IFACE}/greet`, "grpc-encoding": "gzip", "grpc-accept-encoding": "gzip" },
      frame(zipped, true),
    );
    assert.equal(reply.headers["grpc-encoding"], "gzip");
    assert.equal(reply.body[0], 1, "compressed");
    const wrapper = decodeResponseWrapper(await promisify(gunzip)(reply.body.subarray(5)));
    assert.equal(decodeHessian(wrapper.data!), "hi zip");
  });

  test("wire - failures before any message are trailers-only responses with the gRPC status", async () => {
    const unknownService = await exchange({ ":path": "/com.example.Missing/greet" }, greetRequest("a"));
    assert.equal(unknownService.headers["grpc-status"], "12");
    assert.match(
      decodeURIComponent(String(unknownService.headers["grpc-message"])),
      /no service "com\.example\.Missing".*exported here: org\.apache\.dubbo\.demo\.WireService/,
    );
    const wrongTypes = await exchange(
      { ":path": `/${IFACE}/greet` },
      frame(
        encodeRequestWrapper({
          serializeType: "hessian4",
          args: [encodeHessian(1, java.int)],
          argTypes: ["int"],
        }),
      ),
    );
    assert.equal(wrongTypes.headers["grpc-status"], "12");
    assert.match(
      decodeURIComponent(String(wrongTypes.headers["grpc-message"])),
      /greet takes \(java\.lang\.String\)/,
    );
    const badTimeout = await exchange(
      { ":path": `/${IFACE}/greet`, "grpc-timeout": "soon" },
      greetRequest("a"),
    );
    assert.equal(badTimeout.headers["grpc-status"], "3");
    const badEncoding = await exchange(
      { ":path": `/${IFACE}/greet`, "grpc-encoding": "br" },
      greetRequest("a"),
    );
    assert.equal(badEncoding.headers["grpc-status"], "12");
    const notWrapper = await exchange({ ":path": `/${IFACE}/greet` }, frame(Buffer.from([0x08, 0x01])));
    assert.equal(notWrapper.headers["grpc-status"], "13");
    assert.match(
      decodeURIComponent(String(notWrapper.headers["grpc-message"])),
      /not a Triple wrapper message/,
    );
  });

  test("wire - a request wrapper in a serialization the service does not permit is refused as Java 3.3 refuses it", async () => {
    const request = (serializeType: string) =>
      frame(
        encodeRequestWrapper({
          serializeType,
          args: [encodeHessian("ann", java.String)],
          argTypes: ["java.lang.String"],
        }),
      );
    const refused = await exchange({ ":path": `/${IFACE}/greet` }, request("kryo"));
    assert.equal(refused.headers["grpc-status"], "2", "UNKNOWN, as Java's DecodeException");
    assert.match(
      decodeURIComponent(String(refused.headers["grpc-message"])),
      /^Unexpected serialization type:kryo received from network, please check if the peer send the right id\. .*greet.* is serialized as "kryo", not one of the permitted hessian2 .*prefer\.serialization/,
    );
    // Hessian 2 under its wrapper name or its own is permitted by every service (the default).
    for (const name of ["hessian4", "hessian2"]) {
      const reply = await exchange({ ":path": `/${IFACE}/greet` }, request(name));
      assert.equal(reply.trailers["grpc-status"], "0", name);
      assert.equal(decodeHessian(decodeResponseWrapper(reply.body.subarray(5)).data!), "hi ann");
    }
  });

  test("wire - a request that is not gRPC gets an HTTP error", async () => {
    const reply = await exchange(
      { ":path": `/${IFACE}/greet`, "content-type": "text/plain" },
      Buffer.from("hi"),
    );
    assert.equal(reply.headers[":status"], 415);
  });
});
