// Triple in IDL mode against real Java Dubbo 3.3.6 from Maven Central: the Greeter of
// test/triple/proto/, on the Java side declared in one of the two ways Java teams do
// (JavaGreeterStyle: a Java interface with protobuf-java messages on greeter.proto, or the stubs
// of Dubbo's protoc plugin on greeter_java_package.proto, whose java_package makes the Java
// interface name differ from the path), served and called as raw protobuf, no wrapper. Our createProtoClient calls the Java
// provider, and a Java consumer calls our createProtoServer: unary with attachments both ways,
// server streaming, client streaming, bidi, a status error and a deadline; then both ways through
// ZooKeeper. Each test file runs this suite for one style, with one JVM for the whole file.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  Code,
  createDubbo,
  createProtoClient,
  createProtoServer,
  type DubboApplication,
  defineProtoService,
  type ProtoClient,
  type ProtoClientHandle,
  type ProtoImplementation,
  type ProtoServer,
  type ProtoService,
  RpcError,
  silentLogger,
  Url,
} from "../../../src/index.js";
import { useZooKeeper } from "../../registry/zookeeper-fixture.js";
import { Greeter as JavaPackageGreeter } from "../../triple/gen/greeter_java_package_pb.js";
import { Greeter } from "../../triple/gen/greeter_pb.js";
import { freePort, type PeerLine } from "../java-dubbo-real/java-peer.js";
import { type JavaGreeterStyle, type JavaIdlPeer, startJavaIdlPeer } from "./idl-peer.js";

type GreeterClient = ProtoClient<typeof Greeter>;

/** How the calls our server took ended early: the status code name. */
const endings: string[] = [];

async function collect<T>(messages: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

async function* requests(...names: string[]) {
  for (const [i, name] of names.entries()) yield { name, count: i + 1 };
}

function codeName(error: unknown): string {
  return error instanceof RpcError ? Code[error.code] : String(error);
}

/** Our Greeter, as IdlPeer.java's provider answers (with "dubbo-ts" as x-served-by). */
const implementation: ProtoImplementation<typeof Greeter> = {
  async sayHello(request, call) {
    if (request.failCode !== 0) throw new RpcError(`refused ${request.name}`, request.failCode as Code);
    if (request.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, request.delayMs);
        call.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (call.signal.aborted) {
        endings.push(codeName(call.signal.reason));
        throw call.signal.reason;
      }
    }
    call.trailers["x-served-by"] = "dubbo-ts";
    return { message: `hello ${request.name} from ${String(call.metadata["x-caller"])}` };
  },
  async *countdown(request) {
    for (let i = request.count; i > 0; i--) yield { message: `${request.name} ${i}`, index: i };
  },
  async collect(stream) {
    const names: string[] = [];
    for await (const request of stream) names.push(request.name);
    return { message: names.join(","), index: names.length };
  },
  async *chat(stream) {
    for await (const request of stream) yield { message: `re ${request.name}`, index: request.count };
  },
};

async function assertUnaryWithAttachments(greeter: GreeterClient): Promise<void> {
  let received: Record<string, unknown> = {};
  const reply = await greeter.sayHello(
    { name: "node" },
    { metadata: { "x-caller": "node-consumer" }, onMetadata: (m) => (received = m) },
  );
  assert.equal(reply.message, "hello node from node-consumer");
  assert.equal(received["x-served-by"], "java-provider");
}

async function assertStreams(greeter: GreeterClient): Promise<void> {
  const countdown = await collect(greeter.countdown({ name: "go", count: 3 }));
  assert.deepEqual(
    countdown.map((r) => [r.message, r.index]),
    [
      ["go 3", 3],
      ["go 2", 2],
      ["go 1", 1],
    ],
  );
  const joined = await greeter.collect(requests("a", "b", "c"));
  assert.deepEqual([joined.message, joined.index], ["a,b,c", 3]);
  const chat = await collect(greeter.chat(requests("x", "y")));
  assert.deepEqual(
    chat.map((r) => [r.message, r.index]),
    [
      ["re x", 1],
      ["re y", 2],
    ],
  );
}

async function assertStatuses(greeter: GreeterClient): Promise<void> {
  await assert.rejects(greeter.sayHello({ name: "nobody", failCode: Code.NotFound }), (error) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, Code.NotFound);
    assert.match(error.message, /refused nobody/);
    return true;
  });
  // An ordinary Java exception is UNKNOWN with its message; IDL mode sends no tri-exception-code.
  await assert.rejects(greeter.sayHello({ name: "boom" }), (error) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, Code.Unknown);
    assert.match(error.message, /boom in Java/);
    return true;
  });
}

async function assertDeadline(greeter: GreeterClient): Promise<void> {
  await assert.rejects(greeter.sayHello({ name: "slow", delayMs: 3000 }, { timeoutMs: 300 }), (error) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, Code.DeadlineExceeded);
    return true;
  });
}

/** The Java consumer's cases against our Greeter; `endings` is empty before. */
async function assertJavaConsumerCases(
  style: JavaGreeterStyle,
  results: Map<string, PeerLine>,
): Promise<void> {
  const value = (name: string): unknown => {
    const result = results.get(name);
    assert.ok(result !== undefined, `case ${name} ran`);
    assert.equal(result.error, undefined, `case ${name}: ${result.type}: ${result.error}`);
    return result.value;
  };
  assert.match(String(value("proxy")), STYLES[style].consumerClass);
  assert.equal(value("sayHello"), "hello java from java-consumer / x-served-by=dubbo-ts");
  assert.deepEqual(value("countdown"), ["java 3#3", "java 2#2", "java 1#1"]);
  assert.deepEqual(value("collect"), ["a,b,c#3"]);
  assert.deepEqual(value("chat"), ["re x#1", "re y#2"]);
  const status = results.get("status");
  assert.equal(status?.status, Code.NotFound, JSON.stringify(status));
  assert.match(String(status?.error), /refused java/);
  const deadline = results.get("deadline");
  assert.ok(deadline?.error !== undefined, JSON.stringify(deadline));
  // Java's own timers race our server's DEADLINE_EXCEEDED: either a DEADLINE_EXCEEDED status or
  // Dubbo's TIMEOUT_EXCEPTION (2), both at 300 ms.
  assert.ok(deadline.status === Code.DeadlineExceeded || deadline.rpcCode === 2, JSON.stringify(deadline));
  assert.match(String(deadline.error), /300 ?ms/);
  // Java sends its 300 ms as grpc-timeout and, when its own timer fires, resets the stream: our
  // server ends the call by whichever comes first, long before the 3 s delay.
  for (let i = 0; i < 100 && endings.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(endings.length, 1, JSON.stringify(endings));
  assert.ok(["DeadlineExceeded", "Canceled"].includes(endings[0]!), JSON.stringify(endings));
  endings.length = 0;
}

interface Style {
  readonly title: string;
  /** Our declaration of the Java side's proto. */
  readonly service: ProtoService<typeof Greeter>;
  /** The path and the `interface` of the Java provider's URL. */
  readonly path: string;
  readonly consumerClass: RegExp;
  readonly providerProxy: string | null;
}

/** What tells the styles apart on the Java side: how the consumer calls, how the provider is exported. */
const STYLES: Readonly<Record<JavaGreeterStyle, Style>> = {
  // Dubbo's reflection proxy of the interface, serving it by reflection too.
  interface: {
    title: "a Java interface with protobuf messages",
    service: defineProtoService(Greeter),
    path: "dubbo.tri.test.Greeter",
    consumerClass: /^dubbo\.tri\.test\.GreeterDubboProxy\d+$/,
    providerProxy: null,
  },
  // The generated stub calls; the ImplBase (a ServerService) is exported as a native stub, at the
  // proto path and under the Java interface dubbo-compiler names from java_package, which
  // defineProtoService derives too.
  stubs: {
    title: "the stubs of Dubbo's protoc plugin, with a java_package",
    // greet.v1's messages are greeter.proto's under another package: the same types but for
    // their type names, which never go on the wire.
    service: defineProtoService(JavaPackageGreeter) as unknown as ProtoService<typeof Greeter>,
    path: "greet.v1.Greeter",
    consumerClass: /^dubbo\.tri\.test\.DubboGreeterTriple\$GreeterStub$/,
    providerProxy: "nativestub",
  },
};

/** Every Java Greeter is the interface dubbo.tri.test.Greeter, whatever its path. */
const JAVA_INTERFACE = "dubbo.tri.test.Greeter";

/** The whole suite against a Java peer declaring Greeter in `style`; call it once per test file. */
export function javaGreeterSuite(style: JavaGreeterStyle): void {
  const fixture = useZooKeeper(`dubbo-ts-java-${style}-`);
  const GreeterService = STYLES[style].service;
  let java: JavaIdlPeer;
  let ours: ProtoServer;
  let toJava: ProtoClientHandle<typeof Greeter>;

  /** Where the Java provider registers; our provider has a root of its own. */
  const javaProviderRegistry = () => `zookeeper://${fixture.zk.connectString}?group=idl-java-provider`;

  /**
   * Java's Greeter, exported once on first use and registered, so the direct tests call it and
   * our consumer finds it through ZooKeeper: Java 3.3 refuses a second export in one JVM of a
   * stub whose interface differs from its path ("please use a unique path"). Its address.
   */
  let javaProvider: Promise<string> | undefined;
  const provideJava = (): Promise<string> => {
    javaProvider ??= (async () => {
      const port = await freePort(java.host);
      const exported = new URL(await java.provide(javaProviderRegistry(), port));
      assert.equal(exported.searchParams.get("proxy"), STYLES[style].providerProxy, exported.href);
      assert.equal(exported.pathname, `/${STYLES[style].path}`, exported.href);
      assert.equal(exported.searchParams.get("interface"), JAVA_INTERFACE, exported.href);
      return `${java.host}:${port}`;
    })();
    return javaProvider;
  };

  /** An application on `registry` (interface-level, as the Java peer), serving tri on Java's host. */
  async function application(name: string, registry: string): Promise<DubboApplication> {
    const app = await createDubbo({
      application: { name },
      env: false,
      logger: silentLogger,
      registry: {
        address: registry,
        file: join(fixture.dir, `${name}.cache`),
        parameters: { "register-mode": "interface" },
      },
      protocol: { name: "tri", host: java.host, port: 0 },
    });
    fixture.cleanups.push(() => app.stop());
    return app;
  }

  before(async () => {
    java = await startJavaIdlPeer(style);
    ours = await createProtoServer({ host: java.host, port: 0, logger: silentLogger });
    ours.add(GreeterService, implementation);
  });

  after(async () => {
    await toJava?.close();
    await ours?.close();
    await java?.stop();
  });

  describe(`Triple IDL interop with Java Dubbo 3.3.6, ${STYLES[style].title} (direct)`, () => {
    before(async () => {
      toJava = createProtoClient(GreeterService, {
        address: await provideJava(),
        timeoutMs: 10_000,
        logger: silentLogger,
      });
    });

    test(`java idl ${style} - our proto client calls a Java provider: unary with attachments both ways`, async () => {
      await assertUnaryWithAttachments(toJava.client);
    });

    test(`java idl ${style} - our proto client streams with a Java provider: server, client and bidi streaming`, async () => {
      await assertStreams(toJava.client);
    });

    test(`java idl ${style} - a Java provider's status and exception reach our proto client as gRPC statuses`, async () => {
      await assertStatuses(toJava.client);
    });

    test(`java idl ${style} - our proto client's deadline ends a slow call to a Java provider`, async () => {
      await assertDeadline(toJava.client);
    });

    test(`java idl ${style} - a Java consumer calls our proto server: every call kind, a status, a deadline`, async () => {
      await assertJavaConsumerCases(style, await java.consume(`tri://${ours.address}`));
    });

    // Java's ReferenceConfig gives a path-less url= its interface's name as the path: a Java
    // interface's consumer sends /dubbo.tri.test.Greeter/… where the proto with a java_package is
    // served at greet.v1.Greeter; our server answers both names, as Java's TriplePathResolver does.
    // (A generated stub's consumer takes its descriptor's name, the proto path, instead.)
    if (style === "interface") {
      test("java idl interface - a Java consumer's path-less url= reaches a proto with a java_package by its interface's name", async () => {
        const server = await createProtoServer({ host: java.host, port: 0, logger: silentLogger });
        server.add(STYLES.stubs.service, implementation);
        try {
          await assertJavaConsumerCases(style, await java.consume(`tri://${server.address}`));
        } finally {
          await server.close();
        }
      });
    }
  });

  describe(`Triple IDL interop with Java Dubbo 3.3.6, ${STYLES[style].title} (through ZooKeeper, app.export / app.refer)`, () => {
    test(`java idl ${style} - a Java consumer finds our IDL provider through ZooKeeper`, async () => {
      // Each direction has its own ZooKeeper root, so neither side finds the other's provider.
      const registry = `zookeeper://${fixture.zk.connectString}?group=idl-node-provider`;
      const app = await application("ts-idl-provider-zk", registry);
      await app.export(GreeterService, implementation, { scope: "remote" });
      // Registered where the Java consumer subscribes (its interface), served at the proto path.
      const node = `/idl-node-provider/${JAVA_INTERFACE}/providers`;
      const registered = ((await fixture.inspector.getChildren(node)) ?? []).map((child) =>
        Url.parse(decodeURIComponent(child)),
      );
      assert.deepEqual(
        registered.map((url) => [url.protocol, url.path, url.get("interface")]),
        [["tri", STYLES[style].path, JAVA_INTERFACE]],
      );
      await assertJavaConsumerCases(style, await java.consume(registry));
    });

    test(`java idl ${style} - our consumer finds a Java IDL provider through ZooKeeper`, async () => {
      await provideJava();
      const app = await application("ts-idl-consumer-zk", javaProviderRegistry());
      const greeter = await app.refer(GreeterService, { timeoutMs: 5000, retries: 0, check: false });
      // With check: false the first notification may reach our directory a moment after refer.
      for (let i = 0; i < 100; i++) {
        const ready = await greeter.sayHello({ name: "probe" }).then(
          () => true,
          () => false,
        );
        if (ready) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await assertUnaryWithAttachments(greeter);
      await assertStreams(greeter);
      await assertStatuses(greeter);
      await assertDeadline(greeter);
    });
  });
}
