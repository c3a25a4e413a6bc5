// Tracing interop with real Java Dubbo 3.3.6, the other way round: a Java consumer running
// Dubbo's own tracing (dubbo.tracing.enabled on Micrometer's OpenTelemetry bridge) calls our
// provider (OpenTelemetry SDK, in-memory exporter). Our server span is the child of Java's client
// span, as Java printed it from inside its call and as its propagator wrote it into the request:
// W3C `traceparent` and B3's single `b3`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SpanKind } from "@opentelemetry/api";
import { createDubbo, type DubboApplication, defineService, java, silentLogger } from "../../../src/index.js";
import { runToEnd } from "../../run-process.js";
import { javaLocalHost } from "../java-dubbo-real/java-peer.js";
import { tracingClasspath, useInMemoryTracing } from "./tracing-kit.js";

const TraceGreeter = defineService("dubbots.tracing.TraceGreeter", {
  greet: { args: [java.String], returns: java.String },
});

const exporter = useInMemoryTracing();
let provider: DubboApplication;
let address = "";

before(async () => {
  // Java swaps a loopback address for this machine's own, so our provider listens there.
  const host = await javaLocalHost();
  provider = await createDubbo({
    application: { name: "ts-traced-provider", qosEnable: false },
    protocol: { name: "dubbo", host, port: 0 },
    registry: { address: "N/A" },
    env: false,
    logger: silentLogger,
  });
  const exported = await provider.export(TraceGreeter, { greet: (name: string) => `hi ${name}` });
  await provider.start();
  address = exported.urls[0]!.address;
});

after(() => provider.stop());

/** What the Java consumer printed: its client span and the trace attachments it sent. */
interface JavaCall {
  readonly traceId: string;
  readonly spanId: string;
  readonly sent: ReadonlyMap<string, string>;
  readonly answer: string;
}

async function javaCall(propagation: string): Promise<JavaCall> {
  const run = await runToEnd(
    "java",
    ["-cp", tracingClasspath(), "dubbots.tracing.TracedConsumer", propagation, address],
    { timeoutMs: 120_000 },
  );
  assert.equal(run.code, 0, `the Java consumer failed:\n${run.stdout}\n${run.stderr}`);
  const span = /^CLIENT-SPAN ([0-9a-f]{32}) ([0-9a-f]{16})$/m.exec(run.stdout);
  assert.ok(span, `the Java consumer printed its client span:\n${run.stdout}`);
  const sent = new Map([...run.stdout.matchAll(/^SENT (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!] as const));
  const answer = /^ANSWER (.*)$/m.exec(run.stdout)?.[1] ?? "";
  return { traceId: span[1]!, spanId: span[2]!, sent, answer };
}

describe("tracing with a Java Dubbo 3.3.6 consumer running Dubbo's tracing", () => {
  const sentBy: Record<string, (call: JavaCall) => string | undefined> = {
    W3C: (call) => call.sent.get("traceparent"),
    B3: (call) => call.sent.get("b3"),
  };
  for (const [propagation, header] of Object.entries(sentBy)) {
    it(`java tracing - ${propagation}: our server span is the child of Java's client span`, async () => {
      exporter.reset();
      const call = await javaCall(propagation);
      assert.equal(call.answer, "hi java");
      const sent = header(call);
      assert.ok(sent, `Java sent its ${propagation} context: ${JSON.stringify([...call.sent])}`);
      assert.ok(
        sent.includes(call.traceId) && sent.includes(call.spanId),
        `what Java sent (${sent}) names its client span ${call.traceId}/${call.spanId}`,
      );

      const servers = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
      assert.equal(servers.length, 1, "our provider recorded one server span");
      const server = servers[0]!;
      assert.equal(server.name, "dubbots.tracing.TraceGreeter/greet");
      assert.equal(server.spanContext().traceId, call.traceId, "our server span is in Java's trace");
      assert.equal(server.parentSpanContext?.spanId, call.spanId, "its parent is Java's client span");
      assert.equal(server.parentSpanContext?.isRemote, true);
      assert.equal(server.attributes["rpc.system"], "apache_dubbo");
      assert.equal(server.attributes["net.peer.name"], address.slice(0, address.lastIndexOf(":")));
    });
  }
});
