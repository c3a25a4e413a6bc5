// Tracing across two processes over real sockets: a consumer process calls a provider process,
// each with the OpenTelemetry SDK and its in-memory exporter. The provider's server span is the
// child of the consumer's client span (same trace id), with W3C `traceparent` and with B3.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { lineOf, REPO_ROOT, runToEnd, stopChild } from "../run-process.js";

const PEER = "test/tracing/fixtures/traced-peer.ts";

interface SpanRecord {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Record<string, unknown>;
}
const CLIENT = 2;
const SERVER = 1;

let provider: ChildProcess;
let port: number;

before(async () => {
  provider = spawn(process.execPath, ["--import", "tsx", PEER, "provider"], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  port = Number((await lineOf(provider, /^READY (\d+)$/, "the traced provider"))[1]);
});

after(async () => {
  await stopChild(provider);
});

async function consumerSpans(propagation: string): Promise<SpanRecord[]> {
  const run = await runToEnd(
    process.execPath,
    ["--import", "tsx", PEER, "consumer", String(port), propagation],
    {
      cwd: REPO_ROOT,
    },
  );
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(/^SPANS (.*)$/m.exec(run.stdout)![1]!) as SpanRecord[];
}

async function providerSpans(): Promise<SpanRecord[]> {
  const line = lineOf(provider, /^SPANS (.*)$/, "the traced provider");
  provider.stdin!.write("spans\n");
  return JSON.parse((await line)[1]!) as SpanRecord[];
}

describe("tracing across processes", () => {
  for (const propagation of ["W3C", "B3"]) {
    test(`tracing - ${propagation}: the provider's server span is the child of the consumer's client span`, async () => {
      const consumer = await consumerSpans(propagation);
      const root = consumer.find((s) => s.name === "checkout")!;
      const client = consumer.find((s) => s.kind === CLIENT)!;
      assert.equal(client.name, "com.example.Greeter/greet");
      assert.equal(
        client.parentSpanId,
        root.spanId,
        "the client span is a child of the caller's active span",
      );
      assert.equal(client.traceId, root.traceId);
      assert.deepEqual(client.attributes, {
        "rpc.system": "apache_dubbo",
        "rpc.service": "com.example.Greeter",
        "rpc.method": "greet",
        "net.peer.name": "127.0.0.1",
        "net.peer.port": String(port),
      });

      const server = (await providerSpans()).find((s) => s.traceId === client.traceId);
      assert.ok(server, `the provider recorded a span in trace ${client.traceId}`);
      assert.equal(server.kind, SERVER);
      assert.equal(server.name, "com.example.Greeter/greet");
      assert.equal(
        server.parentSpanId,
        client.spanId,
        "the server span's parent is the consumer's client span",
      );
      assert.equal(server.attributes["rpc.system"], "apache_dubbo");
      assert.equal(server.attributes["rpc.service"], "com.example.Greeter");
      assert.equal(server.attributes["rpc.method"], "greet");
      assert.equal(server.attributes["net.peer.name"], "127.0.0.1");
    });
  }
});
