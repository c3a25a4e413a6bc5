// The Greeter service of the IDL tests, served the same way by our server and by a grpc-js server:
// SayHello answers (or fails with `failCode`, or waits `delayMs`), Countdown streams `count`
// replies (`delayMs` apart), Collect joins the streamed names, Chat answers each message. Each
// server records how its calls ended, so a test can see a cancellation arrive.

import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import {
  Code,
  createProtoServer,
  defineProtoService,
  type ProtoImplementation,
  type ProtoServer,
  RpcError,
  silentLogger,
} from "../../src/index.js";
import { Greeter } from "./gen/greeter_pb.js";

export const GreeterService = defineProtoService(Greeter);

const PROTO = fileURLToPath(new URL("proto/greeter.proto", import.meta.url));

/** A request stream of Greeter requests, one per name (`count` its index). */
export async function* names(...list: string[]) {
  for (const [i, name] of list.entries()) yield { name, count: i };
}

/** Every message of `iterable`, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

/** How the servers' calls ended: "ok", or the status code name they ended with. */
export type Endings = string[];

export interface GreeterServers {
  readonly ours: ProtoServer;
  readonly grpcJs: { readonly address: string; readonly server: grpc.Server };
  /** Endings of calls served by ours / by grpc-js. */
  readonly oursEndings: Endings;
  readonly grpcJsEndings: Endings;
  /** Replies Countdown had produced so far (ours), for the backpressure test. */
  produced: number;
}

/** grpc-js's dynamic client of Greeter (proto-loader builds its methods at run time). */
export interface GrpcJsGreeter extends grpc.Client {
  SayHello: (...args: unknown[]) => grpc.ClientUnaryCall;
  Countdown: (request: unknown) => grpc.ClientReadableStream<{ index: number; message: string }>;
  Collect: (
    done: (e: grpc.ServiceError | null, r: { message: string; index: number }) => void,
  ) => grpc.ClientWritableStream<unknown>;
  Chat: () => grpc.ClientDuplexStream<unknown, { message: string }>;
}

/** TLS of the test servers: our server's `ssl`, and grpc-js's the same PEM files. */
export interface GreeterTls {
  readonly certPath: string;
  readonly keyPath: string;
}

export function grpcJsGreeterClient(
  address: string,
  options: { readonly caPem?: Buffer; readonly channel?: grpc.ChannelOptions } = {},
): GrpcJsGreeter {
  const definition = loadSync(PROTO, { defaults: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    dubbo: { tri: { test: { Greeter: grpc.ServiceClientConstructor } } };
  };
  const credentials =
    options.caPem === undefined
      ? grpc.credentials.createInsecure()
      : grpc.credentials.createSsl(options.caPem);
  return new pkg.dubbo.tri.test.Greeter(address, credentials, options.channel) as never;
}

function codeName(error: unknown): string {
  return error instanceof RpcError
    ? (Code[error.code] ?? String(error.code))
    : String((error as Error)?.name);
}

/** What our Greeter records: how its calls ended, and how many Countdown replies it produced. */
export interface GreeterState {
  readonly oursEndings: Endings;
  produced: number;
}

/** Our Greeter's handlers, recording into `state`; `x-served-by` trailers name `servedBy`. */
export function greeterImplementation(
  state: GreeterState,
  servedBy = "dubbo-ts",
): ProtoImplementation<typeof Greeter> {
  return {
    async sayHello(request, call) {
      if (request.failCode !== 0) throw new RpcError(`refused ${request.name}`, request.failCode as Code);
      try {
        if (request.delayMs > 0) await delay(request.delayMs, undefined, { signal: call.signal });
      } catch (error) {
        state.oursEndings.push(codeName(call.signal.reason));
        throw error;
      }
      call.trailers["x-served-by"] = servedBy;
      state.oursEndings.push("ok");
      return { message: `hello ${request.name} from ${String(call.metadata["x-caller"] ?? "nobody")}` };
    },
    async *countdown(request, call) {
      const payload = "x".repeat(request.delayMs < 0 ? 64 * 1024 : 0);
      try {
        for (let i = request.count; i > 0; i--) {
          state.produced++;
          yield { message: `${request.name} ${i}${payload}`, index: i };
          if (request.delayMs > 0) await delay(request.delayMs, undefined, { signal: call.signal });
        }
        state.oursEndings.push("ok");
      } catch (error) {
        state.oursEndings.push(codeName(call.signal.aborted ? call.signal.reason : error));
        throw error;
      }
    },
    async collect(requests) {
      const names: string[] = [];
      for await (const request of requests) names.push(request.name);
      state.oursEndings.push("ok");
      return { message: names.join(","), index: names.length };
    },
    async *chat(requests) {
      try {
        for await (const request of requests) yield { message: `re ${request.name}`, index: request.count };
        state.oursEndings.push("ok");
      } catch (error) {
        state.oursEndings.push(codeName(error));
        throw error;
      }
    },
  };
}

export async function startGreeterServers(tls?: GreeterTls): Promise<GreeterServers> {
  const state = { oursEndings: [] as Endings, grpcJsEndings: [] as Endings, produced: 0 };
  const ours = await createProtoServer({
    host: "127.0.0.1",
    port: 0,
    logger: silentLogger,
    ...(tls === undefined ? {} : { ssl: tls }),
  });
  ours.add(GreeterService, greeterImplementation(state));

  const definition = loadSync(PROTO, { defaults: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    dubbo: { tri: { test: { Greeter: grpc.ServiceClientConstructor } } };
  };
  const server = new grpc.Server();
  type Req = { name: string; count: number; delayMs: number; failCode: number };
  const ended = (call: { on(event: "cancelled", f: () => void): unknown }) =>
    call.on("cancelled", () => state.grpcJsEndings.push("Canceled"));
  server.addService(pkg.dubbo.tri.test.Greeter.service, {
    SayHello(call: grpc.ServerUnaryCall<Req, unknown>, done: grpc.sendUnaryData<unknown>) {
      ended(call);
      const request = call.request;
      if (request.failCode !== 0) {
        done({ code: request.failCode, details: `refused ${request.name}` });
        return;
      }
      const answer = () => {
        if (call.cancelled) return;
        const trailers = new grpc.Metadata();
        trailers.set("x-served-by", "grpc-js");
        const caller = call.metadata.get("x-caller")[0] ?? "nobody";
        state.grpcJsEndings.push("ok");
        done(null, { message: `hello ${request.name} from ${String(caller)}` }, trailers);
      };
      if (request.delayMs > 0) setTimeout(answer, request.delayMs);
      else answer();
    },
    Countdown(call: grpc.ServerWritableStream<Req, unknown>) {
      ended(call);
      let i = call.request.count;
      const next = () => {
        if (call.cancelled) return;
        if (i <= 0) {
          state.grpcJsEndings.push("ok");
          call.end();
          return;
        }
        call.write({ message: `${call.request.name} ${i}`, index: i });
        i--;
        setTimeout(next, call.request.delayMs);
      };
      next();
    },
    Collect(call: grpc.ServerReadableStream<Req, unknown>, done: grpc.sendUnaryData<unknown>) {
      ended(call);
      const names: string[] = [];
      call.on("data", (r: Req) => names.push(r.name));
      call.on("end", () => {
        state.grpcJsEndings.push("ok");
        done(null, { message: names.join(","), index: names.length });
      });
    },
    Chat(call: grpc.ServerDuplexStream<Req, unknown>) {
      ended(call);
      call.on("data", (r: Req) => call.write({ message: `re ${r.name}`, index: r.count }));
      call.on("end", () => {
        state.grpcJsEndings.push("ok");
        call.end();
      });
    },
  });
  const credentials =
    tls === undefined
      ? grpc.ServerCredentials.createInsecure()
      : grpc.ServerCredentials.createSsl(null, [
          { cert_chain: readFileSync(tls.certPath), private_key: readFileSync(tls.keyPath) },
        ]);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", credentials, (e, p) => (e ? reject(e) : resolve(p))),
  );
  return Object.assign(state, { ours, grpcJs: { address: `127.0.0.1:${port}`, server } });
}
