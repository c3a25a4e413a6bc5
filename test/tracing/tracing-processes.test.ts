// Tracing across two processes over real sockets: a consumer process calls a provider process,
// each with the OpenTelemetry SDK and its in-memory exporter. The provider's server span is the
// child of the consumer's client span (same trace id), with W3C `traceparent` and with B3, over
// the dubbo protocol (in attachments) and over Triple (as HTTP/2 headers).
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

const PROTOCOLS = ["dubbo", "tri"] as const;
type Protocol = (typeof PROTOCOLS)[number];
const providers = new Map<Protocol, { readonly process: ChildProcess; readonly port: number }>();

before(async () => {
  for (const protocol of PROTOCOLS) {
    const child = spawn(process.execPath, ["--import", "tsx", PEER, "provider", protocol], {
      cwd: REPO_ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const port = Number((await lineOf(child, /^READY (\d+)$/, `the traced ${protocol} provider`))[1]);
    providers.set(protocol, { process: child, port });
  }
});

after(async () => {
  for (const { process: child } of providers.values()) await stopChild(child);
});

async function consumerSpans(protocol: Protocol, propagation: string): Promise<SpanRecord[]> {
  const port = providers.get(protocol)!.port;
  const run = await runToEnd(
    process.execPath,
    ["--import", "tsx", PEER, "consumer", protocol, String(port), propagation],
    { cwd: REPO_ROOT },
  );
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(/^SPANS (.*)$/m.exec(run.stdout)![1]!) as SpanRecord[];
}

async function providerSpans(protocol: Protocol): Promise<SpanRecord[]> {
  const provider = providers.get(protocol)!.process;
  const line = lineOf(provider, /^SPANS (.*)$/, `the traced ${protocol} provider`);
  provider.stdin!.write("spans\n");
  return JSON.parse((await line)[1]!) as SpanRecord[];
}

describe("tracing across processes", () => {
  for (const protocol of PROTOCOLS)
    for (const propagation of ["W3C", "B3"]) {
      test(`tracing - ${protocol}, ${propagation}: the provider's server span is the child of the consumer's client span`, async () => {
        const port = providers.get(protocol)!.port;
        const consumer = await consumerSpans(protocol, propagation);
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

        const server = (await providerSpans(protocol)).find((s) => s.traceId === client.traceId);
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
