// Shared by the Java Dubbo 3 tracing interop tests: this process's OpenTelemetry SDK with an
// in-memory exporter (and async context), and the classpath of the Java programs in java/, on
// Dubbo 3.3.6 with its tracing (Micrometer's OpenTelemetry bridge).
import { dirname, join } from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { javaDubboClasspath } from "../../../scripts/java-dubbo-deps.mjs";
import { compileJavaHarness } from "../java-build.js";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Registers the SDK for this test file; its spans are read from the returned exporter. */
export function useInMemoryTracing(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  after(() => {
    trace.disable();
    context.disable();
  });
  return exporter;
}

export function tracingClasspath(): string {
  const jars = javaDubboClasspath("dubbo-3.3-tracing");
  const classes = compileJavaHarness({
    sources: [join(HERE, "java")],
    classpath: jars,
    cacheName: "java-dubbo3-tracing",
    suite: "Java Dubbo 3 tracing interop tests",
  });
  return [classes, ...jars].join(":");
}
