// Java Dubbo's Triple consumer of a plain Java interface with protobuf messages (Dubbo 3's
// non-generated IDL style) puts the Java method's name in the path, `sayHello` for the proto's
// `SayHello`: our IDL server answers both, as Java's server does (test/interop/java-dubbo3-idl/
// proves it with a real Java consumer; this pins it without a JVM).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { HelloReplySchema, HelloRequestSchema } from "./gen/greeter_pb.js";
import { type GreeterServers, startGreeterServers } from "./greeter-peers.js";

let servers: GreeterServers;
before(async () => {
  servers = await startGreeterServers();
});
after(async () => {
  await servers.ours.close();
  servers.grpcJs.server.forceShutdown();
});

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

test("idl - a method is found by its proto name and by the Java method name", async () => {
  assert.equal(await sayHelloAt("/dubbo.tri.test.Greeter/SayHello"), "hello java from nobody");
  assert.equal(await sayHelloAt("/dubbo.tri.test.Greeter/sayHello"), "hello java from nobody");
});
