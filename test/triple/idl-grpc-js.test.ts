// IDL mode against grpc-js, both ways: grpc-js's client (proto-loader) calls our Triple server and
// our IDL consumer calls a grpc-js server, for all four call kinds, metadata, status codes,
// deadlines and cancellation; and our server's streamed answers wait for a slow reader.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { Code, createProtoClient, RpcError, silentLogger } from "../../src/index.js";
import { HelloReplySchema, HelloRequestSchema } from "./gen/greeter_pb.js";
import {
  type GreeterServers,
  GreeterService,
  type GrpcJsGreeter,
  grpcJsGreeterClient,
  startGreeterServers,
} from "./greeter-peers.js";

let servers: GreeterServers;
before(async () => {
  servers = await startGreeterServers();
});
after(async () => {
  await servers.ours.close();
  servers.grpcJs.server.forceShutdown();
});

/** Waits (bounded) until `endings` holds `count` entries. */
async function endingsReach(endings: readonly string[], count: number): Promise<void> {
  for (let i = 0; i < 500 && endings.length < count; i++) await new Promise((r) => setTimeout(r, 10));
}

async function* requests(...names: string[]) {
  for (const [i, name] of names.entries()) yield { name, count: i };
}

describe("a grpc-js client calls our IDL server", () => {
  let client: GrpcJsGreeter;
  before(() => {
    client = grpcJsGreeterClient(servers.ours.address);
  });
  after(() => client.close());

  test("unary with metadata both ways", async () => {
    const metadata = new grpc.Metadata();
    metadata.set("x-caller", "grpc-js");
    let status: Promise<grpc.StatusObject> | undefined;
    const reply = await new Promise<{ message: string }>((resolve, reject) => {
      const call = client.SayHello({ name: "ann" }, metadata, (e: Error | null, r: { message: string }) =>
        e ? reject(e) : resolve(r),
      );
      status = new Promise((resolve) => call.on("status", resolve));
    });
    assert.equal(reply.message, "hello ann from grpc-js");
    assert.deepEqual((await status)?.metadata.get("x-served-by"), ["dubbo-ts"]);
  });

  test("a status code and message arrive as grpc-js reads them", async () => {
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      client.SayHello({ name: "bob", failCode: Code.NotFound }, (e: grpc.ServiceError) => resolve(e)),
    );
    assert.equal(error.code, grpc.status.NOT_FOUND);
    assert.equal(error.details, "refused bob");
  });

  test("server streaming, client streaming and bidirectional streaming", async () => {
    const countdown = client.Countdown({ name: "n", count: 3 });
    const got: number[] = [];
    for await (const reply of countdown) got.push(reply.index);
    assert.deepEqual(got, [3, 2, 1]);

    const collected = await new Promise<{ message: string; index: number }>((resolve, reject) => {
      const call = client.Collect((e: Error | null, r: { message: string; index: number }) =>
        e ? reject(e) : resolve(r),
      );
      for (const name of ["a", "b", "c"]) call.write({ name });
      call.end();
    });
    assert.deepEqual([collected.message, collected.index], ["a,b,c", 3]);

    const chat = client.Chat();
    chat.write({ name: "x" });
    chat.write({ name: "y" });
    chat.end();
    const answers: string[] = [];
    for await (const reply of chat) answers.push(reply.message);
    assert.deepEqual(answers, ["re x", "re y"]);
  });

  test("its deadline ends the call with DEADLINE_EXCEEDED and aborts the handler", async () => {
    const before = servers.oursEndings.length;
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      client.SayHello(
        { name: "slow", delayMs: 5000 },
        { deadline: Date.now() + 200 },
        (e: grpc.ServiceError) => resolve(e),
      ),
    );
    assert.equal(error.code, grpc.status.DEADLINE_EXCEEDED);
    await endingsReach(servers.oursEndings, before + 1);
    assert.ok(
      ["DeadlineExceeded", "Canceled"].includes(servers.oursEndings[before]!),
      servers.oursEndings[before],
    );
  });

  test("cancel() ends our server's stream with CANCELLED", async () => {
    const before = servers.oursEndings.length;
    const call = client.Countdown({ name: "long", count: 1000, delayMs: 20 });
    await new Promise((resolve) => call.once("data", resolve));
    call.on("error", () => {});
    call.cancel();
    await endingsReach(servers.oursEndings, before + 1);
    assert.equal(servers.oursEndings[before], "Canceled");
  });
});

describe("our IDL consumer calls a grpc-js server", () => {
  let handle: ReturnType<typeof createProtoClient<typeof GreeterService.descriptor>>;
  let client: typeof handle.client;
  before(() => {
    handle = createProtoClient(GreeterService, { address: servers.grpcJs.address, logger: silentLogger });
    client = handle.client;
  });
  after(() => handle.close());

  test("unary with metadata both ways", async () => {
    let metadata: Record<string, unknown> = {};
    const reply = await client.sayHello(
      { name: "ann" },
      { metadata: { "x-caller": "dubbo-ts" }, onMetadata: (m) => (metadata = m) },
    );
    assert.equal(reply.message, "hello ann from dubbo-ts");
    assert.equal(metadata["x-served-by"], "grpc-js");
  });

  test("a status code arrives as an RpcError with gRPC's code", async () => {
    const error = await client
      .sayHello({ name: "bob", failCode: Code.PermissionDenied })
      .catch((e: unknown) => e);
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, Code.PermissionDenied);
    assert.match(error.message, /refused bob/);
  });

  test("server streaming, client streaming and bidirectional streaming", async () => {
    const got: number[] = [];
    for await (const reply of client.countdown({ name: "n", count: 3 })) got.push(reply.index);
    assert.deepEqual(got, [3, 2, 1]);
    const collected = await client.collect(requests("a", "b", "c"));
    assert.deepEqual([collected.message, collected.index], ["a,b,c", 3]);
    const answers: string[] = [];
    for await (const reply of client.chat(requests("x", "y"))) answers.push(reply.message);
    assert.deepEqual(answers, ["re x", "re y"]);
  });

  test("our deadline fails the call with DeadlineExceeded", async () => {
    const error = await client
      .sayHello({ name: "slow", delayMs: 5000 }, { timeoutMs: 200 })
      .catch((e: unknown) => e);
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, Code.DeadlineExceeded);
  });

  test("breaking out of a response stream cancels the call on the grpc-js server", async () => {
    const before = servers.grpcJsEndings.length;
    for await (const reply of client.countdown({ name: "long", count: 1000, delayMs: 20 })) {
      assert.equal(reply.index, 1000);
      break;
    }
    await endingsReach(servers.grpcJsEndings, before + 1);
    assert.equal(servers.grpcJsEndings[before], "Canceled");
  });
});

describe("our IDL consumer and server", () => {
  test("breaking out of a bidirectional stream ends the server's request iterator with CANCELLED", async () => {
    const { client, close } = createProtoClient(GreeterService, {
      address: servers.ours.address,
      logger: silentLogger,
    });
    try {
      const before = servers.oursEndings.length;
      async function* endless() {
        for (let i = 0; i < 10_000; i++) {
          yield { name: `m${i}`, count: i };
          await new Promise((r) => setTimeout(r, 5));
        }
      }
      for await (const reply of client.chat(endless())) {
        assert.equal(reply.message, "re m0");
        break;
      }
      await endingsReach(servers.oursEndings, before + 1);
      assert.equal(servers.oursEndings[before], "Canceled");
    } finally {
      await close();
    }
  });

  test("a streamed answer waits while its reader does not read (backpressure)", async () => {
    const { client, close } = createProtoClient(GreeterService, {
      address: servers.ours.address,
      logger: silentLogger,
    });
    try {
      const total = 1000; // 64 KiB each: 64 MiB if nothing held the server back
      const iterator = client.countdown({ name: "big", count: total, delayMs: -1 })[Symbol.asyncIterator]();
      servers.produced = 0;
      await iterator.next();
      // Give an unbounded producer ample room to run ahead, then see it was held back.
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(
        servers.produced < total / 4,
        `the server produced ${servers.produced} of ${total} replies unread`,
      );
      await iterator.return?.(undefined);
    } finally {
      await close();
    }
  });
});

describe("a method path as Java Dubbo writes it", () => {
  function sayHelloAt(path: string): Promise<string> {
    const client = new grpc.Client(servers.ours.address, grpc.credentials.createInsecure());
    return new Promise<string>((resolve, reject) => {
      client.makeUnaryRequest(
        path,
        (request: { name: string }) =>
          Buffer.from(toBinary(HelloRequestSchema, create(HelloRequestSchema, request))),
        (bytes: Buffer) => fromBinary(HelloReplySchema, bytes),
        { name: "java" },
        (error, reply) => (error ? reject(error) : resolve(reply!.message)),
      );
    }).finally(() => client.close());
  }

  // Java's Triple consumer of a plain Java interface with protobuf messages (Dubbo 3's
  // non-generated IDL style) sends the Java method's name, `sayHello` for the proto's `SayHello`;
  // our server answers both, as Java's does (test/interop/java-dubbo3-idl/ with a real Java consumer).
  test("a method is found by its proto name and by the Java method name", async () => {
    assert.equal(await sayHelloAt("/dubbo.tri.test.Greeter/SayHello"), "hello java from nobody");
    assert.equal(await sayHelloAt("/dubbo.tri.test.Greeter/sayHello"), "hello java from nobody");
  });
});
