// grpc-js as an independent gRPC peer, unary, with an identity (raw bytes) codec carrying wrapper
// messages: its client calls our Triple provider (status, message and metadata as gRPC defines
// them, its deadline honoured), and our consumer calls its server.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import * as grpc from "@grpc/grpc-js";
import { BizError, Code, defineService, java, RpcError, runWithRpcContext } from "../../src/index.js";
import {
  decodeRequestWrapper,
  decodeResponseWrapper,
  encodeRequestWrapper,
  encodeResponseWrapper,
} from "../../src/protocol/triple/wrapper-codec.js";
import { decodeHessian, encodeHessian } from "../../src/serialize/index.js";
import { triApps } from "./tri-apps.js";

const IFACE = "org.apache.dubbo.demo.GrpcPeerService";
const Peer = defineService(IFACE, {
  greet: { args: [java.String], returns: java.String },
  slow: { args: [java.int], returns: java.String },
  refuse: { args: [], returns: java.String },
});

const raw = (b: Buffer): Buffer => b;
const apps = triApps();
let address: string;

before(async () => {
  const app = await apps.provider("grpc-js-peer-provider");
  const exporter = await app.export(
    Peer,
    {
      greet: (name) => `hi ${name}`,
      slow: (ms) => new Promise((resolve) => setTimeout(() => resolve("late"), ms)),
      refuse: () => {
        throw new BizError("no");
      },
    },
    { scope: "remote" },
  );
  address = exporter.urls[0]!.address;
});

after(() => apps.stopAll());

function grpcJsCall(
  client: grpc.Client,
  method: string,
  request: Buffer,
  options: { deadlineMs?: number; metadata?: grpc.Metadata } = {},
): Promise<{ response: Buffer; headers: grpc.Metadata }> {
  return new Promise((resolve, reject) => {
    let headers = new grpc.Metadata();
    const call = client.makeUnaryRequest(
      `/${IFACE}/${method}`,
      raw,
      raw,
      request,
      options.metadata ?? new grpc.Metadata(),
      options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs },
      (error, response) => (error ? reject(error) : resolve({ response: response!, headers })),
    );
    call.on("metadata", (m) => {
      headers = m;
    });
  });
}

const wrapped = (value: string) =>
  encodeRequestWrapper({
    serializeType: "hessian4",
    args: [encodeHessian(value, java.String)],
    argTypes: ["java.lang.String"],
  });

describe("grpc-js as a peer", () => {
  test("grpc-js - its client calls our provider; a business exception is marked in the headers", async () => {
    const client = new grpc.Client(address, grpc.credentials.createInsecure());
    try {
      const { response } = await grpcJsCall(client, "greet", wrapped("grpc"));
      assert.equal(decodeHessian(decodeResponseWrapper(response).data!), "hi grpc");
      const refused = await grpcJsCall(
        client,
        "refuse",
        encodeRequestWrapper({ serializeType: "hessian4", args: [], argTypes: [] }),
      );
      assert.equal(refused.headers.get("tri-exception-code")[0], "3");
      assert.ok(decodeHessian(decodeResponseWrapper(refused.response).data!) instanceof BizError);
    } finally {
      client.close();
    }
  });

  test("grpc-js - status and message of an unknown service; its deadline ends the call as DEADLINE_EXCEEDED", async () => {
    const client = new grpc.Client(address, grpc.credentials.createInsecure());
    try {
      await assert.rejects(
        new Promise((resolve, reject) =>
          client.makeUnaryRequest("/com.example.Nope/greet", raw, raw, wrapped("x"), (e, r) =>
            e ? reject(e) : resolve(r),
          ),
        ),
        (error: grpc.ServiceError) => {
          assert.equal(error.code, grpc.status.UNIMPLEMENTED);
          assert.match(error.details, /no service "com\.example\.Nope"/);
          return true;
        },
      );
      const slow = encodeRequestWrapper({
        serializeType: "hessian4",
        args: [encodeHessian(5000, java.int)],
        argTypes: ["int"],
      });
      await assert.rejects(
        grpcJsCall(client, "slow", slow, { deadlineMs: 200 }),
        (error: grpc.ServiceError) => {
          assert.equal(error.code, grpc.status.DEADLINE_EXCEEDED);
          return true;
        },
      );
    } finally {
      client.close();
    }
  });

  test("grpc-js - our consumer calls its server; its status codes become our codes", async () => {
    const server = new grpc.Server();
    server.register(
      `/${IFACE}/greet`,
      (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const arg = decodeHessian(decodeRequestWrapper(call.request).args[0]!, java.String);
        const metadata = new grpc.Metadata();
        metadata.set("served-by", "grpc-js");
        call.sendMetadata(metadata);
        callback(
          null,
          encodeResponseWrapper({
            serializeType: "hessian4",
            data: encodeHessian(`grpc-js greets ${arg}`, java.String),
            type: "java.lang.String",
          }),
        );
      },
      raw,
      raw,
      "unary",
    );
    server.register(
      `/${IFACE}/refuse`,
      (_call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) =>
        callback({ code: grpc.status.PERMISSION_DENIED, details: "not you ✋" }),
      raw,
      raw,
      "unary",
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    try {
      const app = await apps.consumer("grpc-js-consumer");
      const stub = await app.refer(Peer, { url: `tri://127.0.0.1:${port}`, retries: 0 });
      const { value, servedBy } = await runWithRpcContext(async (ctx) => ({
        value: await stub.greet("node"),
        servedBy: ctx.getReceivedAttachment("served-by"),
      }));
      assert.equal(value, "grpc-js greets node");
      assert.equal(servedBy, "grpc-js", "its response metadata arrives as attachments");
      await assert.rejects(stub.refuse(), (error: unknown) => {
        assert.ok(error instanceof RpcError);
        assert.equal(error.code, Code.PermissionDenied);
        assert.match(error.message, /not you ✋/);
        return true;
      });
    } finally {
      server.forceShutdown();
    }
  });
});
