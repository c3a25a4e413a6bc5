// One client span per logical call, as Java 3's tracing makes it in a cluster filter: a call whose
// first provider is dead fails over to the second, and the consumer records one client span (named
// for the first provider tried, as Java tags it) whose child is the live provider's server span.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { context, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createDubbo, type DubboApplication, defineService, java, silentLogger } from "../../src/index.js";

const Greeter = defineService("com.example.FailoverGreeter", {
  greet: { args: [java.String], returns: java.String },
});

const exporter = new InMemorySpanExporter();
const apps: DubboApplication[] = [];

before(() => {
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});

after(async () => {
  for (const app of apps) await app.stop();
  trace.disable();
  context.disable();
});

async function application(name: string): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name, qosEnable: false },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    registry: { address: "N/A" },
    env: false,
    logger: silentLogger,
  });
  apps.push(app);
  return app;
}

async function provider(name: string): Promise<{ app: DubboApplication; port: number }> {
  const app = await application(name);
  const exported = await app.export(Greeter, { greet: (who: string) => `${name} greets ${who}` });
  await app.start();
  return { app, port: exported.urls[0]!.port };
}

it("tracing - a call that fails over from a dead provider is one client span, parent of the live provider's span", async () => {
  // A provider that served on its port and stopped: nothing listens there any more.
  const dead = await provider("dead");
  await dead.app.stop();
  const live = await provider("live");
  const consumer = await application("failover-consumer");
  const greeter = await consumer.refer(Greeter, {
    url: `dubbo://127.0.0.1:${dead.port};dubbo://127.0.0.1:${live.port}`,
    check: false,
    // Round robin starts with the first address; the check off lets the cluster try the dead one.
    loadbalance: "roundrobin",
    parameters: { "cluster.availablecheck": "false" },
  });
  exporter.reset();

  assert.equal(await greeter.greet("ann"), "live greets ann");

  const spans = exporter.getFinishedSpans();
  const clients = spans.filter((s) => s.kind === SpanKind.CLIENT);
  assert.equal(
    clients.length,
    1,
    `one client span for the logical call: ${clients.map((s) => s.name).join(", ")}`,
  );
  const client = clients[0]!;
  assert.equal(client.name, "com.example.FailoverGreeter/greet");
  assert.equal(client.attributes["net.peer.port"], String(dead.port), "tagged with the first provider tried");
  const servers = spans.filter((s) => s.kind === SpanKind.SERVER);
  assert.equal(servers.length, 1);
  assert.equal(servers[0]!.parentSpanContext?.spanId, client.spanContext().spanId);
  assert.equal(servers[0]!.spanContext().traceId, client.spanContext().traceId);
});
