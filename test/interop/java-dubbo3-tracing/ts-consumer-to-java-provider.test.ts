// Tracing interop with real Java Dubbo 3.3.6: our consumer (OpenTelemetry SDK, in-memory exporter)
// calls a Java provider running Dubbo's own tracing (dubbo.tracing.enabled on Micrometer's
// OpenTelemetry bridge). Java's server span joins our trace as the child of our client span, with
// W3C `traceparent` and with B3's single `b3` attachment, each read by Java's own propagator.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { trace } from "@opentelemetry/api";
import { freePort } from "../../../scripts/zookeeper.mjs";
import { createDubbo, defineService, java, silentLogger } from "../../../src/index.js";
import { lineOf, stopChild } from "../../run-process.js";
import { tracingClasspath, useInMemoryTracing } from "./tracing-kit.js";

const TraceEcho = defineService("dubbots.tracing.TraceEcho", {
  whereAmI: { args: [], returns: java.String },
});

const exporter = useInMemoryTracing();

describe("tracing with a Java Dubbo 3.3.6 provider running Dubbo's tracing", () => {
  for (const propagation of ["W3C", "B3"]) {
    it(`java tracing - ${propagation}: Java's server span is the child of our client span`, async () => {
      const port = await freePort();
      const provider = spawn(
        "java",
        ["-cp", tracingClasspath(), "dubbots.tracing.TracedProvider", propagation, String(port)],
        {
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      try {
        await lineOf(provider, /^READY$/, "the Java traced provider");
        await using app = await createDubbo({
          application: {
            name: `traced-consumer-${propagation}`,
            qosEnable: false,
            parameters: { "tracing.propagation.type": propagation },
          },
          registry: { address: "N/A" },
          env: false,
          logger: silentLogger,
        });
        const echo = await app.refer(TraceEcho, { url: `dubbo://127.0.0.1:${port}`, timeoutMs: 10_000 });
        exporter.reset();
        const answer = await trace.getTracer("test").startActiveSpan("checkout", async (root) => {
          try {
            return await echo.whereAmI();
          } finally {
            root.end();
          }
        });
        const client = exporter
          .getFinishedSpans()
          .find((s) => s.name === "dubbots.tracing.TraceEcho/whereAmI");
        assert.ok(client, "our consumer recorded its client span");
        const [traceId, parentSpanId] = answer.split(" ");
        assert.equal(traceId, client.spanContext().traceId, "Java's server span is in our trace");
        assert.equal(parentSpanId, client.spanContext().spanId, "its parent is our client span");
      } finally {
        provider.stdin.end();
        await stopChild(provider);
      }
    });
  }
});
