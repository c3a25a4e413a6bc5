// grpc-js as gRPC applications use it: @grpc/proto-loader reading bench/triple/echo.proto, one
// client channel, the `trace` as metadata on each call, unary handlers echoing the message.
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import type { BenchUser, Contender, EchoClient, EchoServer } from "./workloads.js";

const PROTO = fileURLToPath(new URL("../triple/echo.proto", import.meta.url));

type UnaryMethod = (
  request: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  done: (error: grpc.ServiceError | null, response?: unknown) => void,
) => grpc.ClientUnaryCall;

interface EchoStub extends grpc.Client {
  echoText: UnaryMethod;
  echoUser: UnaryMethod;
}

function echoService(): grpc.ServiceClientConstructor {
  const definition = loadSync(PROTO, { longs: Number, defaults: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    dubbo: { bench: { EchoService: grpc.ServiceClientConstructor } };
  };
  return pkg.dubbo.bench.EchoService;
}

async function startServer(): Promise<EchoServer> {
  const server = new grpc.Server();
  const echo: grpc.handleUnaryCall<unknown, unknown> = (call, done) => done(null, call.request);
  server.addService(echoService().service, { echoText: echo, echoUser: echo });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    port,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

async function connect(port: number): Promise<EchoClient> {
  const Client = echoService();
  const stub = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as EchoStub;
  const call = <T>(method: UnaryMethod, request: unknown, trace: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const metadata = new grpc.Metadata();
      metadata.set("trace", trace);
      method.call(stub, request, metadata, { deadline: Date.now() + 5000 }, (error, response) =>
        error ? reject(error) : resolve(response as T),
      );
    });
  return {
    echoText: async (text, trace) => (await call<{ text: string }>(stub.echoText, { text }, trace)).text,
    echoUser: (user, trace) => call<BenchUser>(stub.echoUser, user, trace),
    close: async () => stub.close(),
  };
}

export const grpcJsContender: Contender = { startServer, connect };
