// A serialization written against the public API only: a protocol whose `serialization` names it
// carries every call's request and response bodies in it over a real socket (the consumer writes
// it, the provider reads it by the header's id and answers in it). A provider without it answers
// at once with BAD_REQUEST naming the id and its serializations, and two serializations claiming
// one id fail the application at start.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  Code,
  createDubbo,
  type DubboApplication,
  defineService,
  java,
  RpcError,
  silentLogger,
} from "dubbo-ts";
import type { ObjectInput, ObjectOutput, Plugin, Serialization } from "dubbo-ts/extension";

declare module "dubbo-ts" {
  interface CustomExtensions {
    lines: "serialization";
  }
}

const Greeter = defineService("org.example.plugin.SerializedGreeter", {
  greet: { args: [java.String, java.int], returns: java.String },
});

/** Bodies each side wrote and read in the plugin's serialization. */
const used = { written: 0, read: 0 };

/** One JSON text per line, prefixed with `L:` so no other serialization could read it by accident. */
class LinesOutput implements ObjectOutput {
  private parts: Buffer[] = [];

  writeValue(value: unknown): void {
    this.parts.push(Buffer.from(`L:${JSON.stringify(value ?? null)}\n`));
  }

  writeBytes(bytes: Uint8Array): void {
    this.parts.push(Buffer.from(bytes));
  }

  finish(): Buffer {
    used.written += 1;
    const body = Buffer.concat(this.parts);
    this.parts = [];
    return body;
  }

  reset(): void {
    this.parts = [];
  }
}

class LinesInput implements ObjectInput {
  constructor(
    private readonly bytes: Buffer,
    private pos: number,
  ) {
    used.read += 1;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  readValue(): unknown {
    const end = this.bytes.indexOf(0x0a, this.pos);
    const line = this.bytes.toString("utf8", this.pos, end);
    this.pos = end + 1;
    if (!line.startsWith("L:")) throw new Error(`not a lines value: ${line}`);
    return JSON.parse(line.slice(2));
  }
}

const lines: Serialization = {
  id: 20,
  name: "lines",
  createOutput: () => new LinesOutput(),
  createInput: (bytes, offset = 0) => new LinesInput(Buffer.from(bytes), offset),
};

const linesPlugin: Plugin = {
  name: "lines-serialization",
  register: (points) => {
    points.serialization.register("lines", lines);
  },
};

const quiet = { logger: silentLogger, env: false } as const;
/** A provider (its protocol's serialization and plugins as given) and a consumer with the lines plugin. */
async function withApps(
  provider: { readonly serialization?: "lines"; readonly plugins: readonly Plugin[] },
  run: (provider: DubboApplication, consumer: DubboApplication) => Promise<void>,
): Promise<void> {
  const providerApp = await createDubbo({
    ...quiet,
    application: { name: "serialized-provider" },
    protocol: {
      name: "dubbo",
      host: "127.0.0.1",
      port: 0,
      ...(provider.serialization === undefined ? {} : { serialization: provider.serialization }),
    },
    plugins: provider.plugins,
  });
  const consumerApp = await createDubbo({
    ...quiet,
    application: { name: "lines-consumer" },
    plugins: [linesPlugin],
  });
  try {
    await run(providerApp, consumerApp);
  } finally {
    await consumerApp.stop();
    await providerApp.stop();
  }
}

const greeter = { greet: async (name: string, times: number) => `hello ${name} x${times}` };

describe("a third-party serialization", () => {
  it("plugins - a protocol with serialization=lines carries calls in the plugin's serialization both ways", async () => {
    await withApps({ serialization: "lines", plugins: [linesPlugin] }, async (provider, consumer) => {
      const exported = await provider.export(Greeter, greeter, { scope: "remote" });
      const url = exported.urls[0]!;
      assert.equal(url.get("serialization"), "lines", "the registered URL names it for consumers");
      const stub = await consumer.refer(Greeter, { url: url.toString(), timeoutMs: 10_000 });
      const before = { ...used };
      assert.equal(await stub.greet("ada", 2), "hello ada x2");
      assert.equal(await stub.greet("bob", 3), "hello bob x3");
      // Per call: the consumer writes a request and reads a response, the provider the reverse.
      assert.ok(
        used.written - before.written >= 4,
        `bodies written in lines: ${used.written - before.written}`,
      );
      assert.equal(used.read - before.read, 4, "two requests and two responses read in lines");
    });
  });

  it("plugins - a provider without the serialization answers BAD_REQUEST at once, naming the id and its own", async () => {
    await withApps({ plugins: [] }, async (provider, consumer) => {
      const exported = await provider.export(Greeter, greeter, { scope: "remote" });
      const url = exported.urls[0]!.withParams({ serialization: "lines", "prefer.serialization": "lines" });
      // A long timeout: the answer must come from the provider, not from the consumer giving up.
      const stub = await consumer.refer(Greeter, { url: url.toString(), timeoutMs: 60_000, retries: 0 });
      await assert.rejects(
        stub.greet("ada", 1),
        (e: unknown) =>
          e instanceof RpcError &&
          e.code === Code.InvalidArgument &&
          /serialization id 20, which this provider does not have \(registered: hessian2 \(id 2\), fastjson \(id 6\)\)/.test(
            e.message,
          ),
      );
    });
  });

  it("plugins - two serializations with one id fail the application at start, naming both", async () => {
    const clash: Plugin = {
      name: "clash",
      register: (points) => {
        points.serialization.register("json-again", { ...lines, id: 6, name: "json-again" });
      },
    };
    await assert.rejects(
      createDubbo({ ...quiet, application: { name: "clash" }, plugins: [clash] }),
      (e: unknown) => e instanceof RpcError && /"fastjson" and "json-again" both use id 6/.test(e.message),
    );
  });
});
