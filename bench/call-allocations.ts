/**
 * Heap bytes allocated per dubbo call (consumer and provider in this process, over loopback), for a
 * plain stub and a generic stub (whose constant `{ generic }` attachments the reference encodes
 * once), from V8's sampling heap profiler counting collected objects too, with the allocating
 * functions that take the most. Counts survive a loaded machine where timings do not: run it
 * before and after a hot-path change.
 *
 * npx tsx bench/call-allocations.ts [top]
 */
import { Session } from "node:inspector/promises";
import { defineService, java, silentLogger, Url } from "../src/core/index.js";
import { createFilterExtensionPoint, wrapProtocolWithFilters } from "../src/filter/index.js";
import { createDubboProtocol } from "../src/protocol/dubbo/index.js";
import { createGenericStub, createProviderInvoker, createStub } from "../src/proxy/index.js";
import { sampleAllocations } from "./heap-sampling.js";

const WARMUP_CALLS = 5000;
const CALLS = 20_000;
/** Bytes between samples: small, so a few bytes per call still show. */
const SAMPLING_INTERVAL = 32;
const TOP = Number(process.argv[2] ?? 8);
const IFACE = "org.example.bench.Allocations";
const Service = defineService(IFACE, { echo: { args: [java.String], returns: java.String } });

const session = new Session();
session.connect();

/** Bytes per call in total and by allocating function (`name file`). */
async function allocationsPerCall(call: () => Promise<unknown>): Promise<Array<readonly [string, number]>> {
  for (let i = 0; i < WARMUP_CALLS; i++) await call();
  const bySite = await sampleAllocations(session, SAMPLING_INTERVAL, async () => {
    for (let i = 0; i < CALLS; i++) await call();
  });
  let total = 0;
  for (const bytes of bySite.values()) total += bytes;
  const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  return [["total", total / CALLS], ...top.map(([site, bytes]) => [site, bytes / CALLS] as const)];
}

function print(label: string, rows: Array<readonly [string, number]>): void {
  console.log(label);
  for (const [site, bytes] of rows) console.log(`  ${String(Math.round(bytes)).padStart(6)} B/call  ${site}`);
}

const provider = createDubboProtocol({ logger: silentLogger });
const consumer = createDubboProtocol({ logger: silentLogger });
try {
  // The provider's filters (the generic filter serves `$invoke`).
  const exporter = await wrapProtocolWithFilters(provider, createFilterExtensionPoint()).export(
    createProviderInvoker(
      Service,
      { echo: (text: string) => text },
      Url.parse(`dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}`),
    ),
  );
  const port = (exporter as unknown as { url: Url }).url.port;
  const invoker = await consumer.refer(
    Url.parse(`dubbo://127.0.0.1:${port}/${IFACE}?interface=${IFACE}&timeout=5000`),
  );
  const stub = createStub(Service, invoker);
  const generic = createGenericStub(invoker);
  print("stub call", await allocationsPerCall(() => stub.echo("hello")));
  print(
    "generic call",
    await allocationsPerCall(() => generic.$invoke("echo", ["java.lang.String"], ["hello"])),
  );
} finally {
  session.disconnect();
  await consumer.destroy();
  await provider.destroy();
}
