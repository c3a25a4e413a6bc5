// @grpc/grpc-js unary calls on the same workloads, over one HTTP/2 channel (one connection).
import { fileURLToPath } from "node:url";
import {
  type Client,
  credentials,
  loadPackageDefinition,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServiceClientConstructor,
  type ServiceDefinition,
  type ServiceError,
  type sendUnaryData,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import type { BenchUser, Contender, EchoClient, EchoServer } from "./workloads.js";

const PROTO = fileURLToPath(new URL("./echo.proto", import.meta.url));

function loadEchoService(): ServiceClientConstructor {
  const definition = loadSync(PROTO, { keepCase: true, longs: Number, defaults: true });
  const pkg = loadPackageDefinition(definition) as unknown as { bench: { Echo: ServiceClientConstructor } };
  return pkg.bench.Echo;
}

interface Text {
  value: string;
}

function echo<T>(call: ServerUnaryCall<T, T>, callback: sendUnaryData<T>): void {
  callback(null, call.request);
}

function startServer(): Promise<EchoServer> {
  const Echo = loadEchoService();
  const server = new Server();
  server.addService(Echo.service as ServiceDefinition, { EchoText: echo, EchoUser: echo });
  return new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, port) => {
      if (error !== null) {
        reject(error);
        return;
      }
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.tryShutdown(() => done());
          }),
      });
    });
  });
}

type Unary<T> = (request: T, callback: (error: ServiceError | null, response: T) => void) => void;

function unary<T>(client: Client, name: string): (request: T) => Promise<T> {
  const method = (client as unknown as Record<string, Unary<T>>)[name]!.bind(client);
  return (request) =>
    new Promise((resolve, reject) => {
      method(request, (error, response) => (error === null ? resolve(response) : reject(error)));
    });
}

async function connect(port: number): Promise<EchoClient> {
  const Echo = loadEchoService();
  const client = new Echo(`127.0.0.1:${port}`, credentials.createInsecure());
  await new Promise<void>((resolve, reject) => {
    client.waitForReady(Date.now() + 5000, (error) => (error === undefined ? resolve() : reject(error)));
  });
  const echoText = unary<Text>(client, "EchoText");
  const echoUser = unary<BenchUser>(client, "EchoUser");
  return {
    echoText: async (value) => (await echoText({ value })).value,
    echoUser,
    close: async () => {
      client.close();
    },
  };
}

export const grpcContender: Contender = { startServer, connect };
