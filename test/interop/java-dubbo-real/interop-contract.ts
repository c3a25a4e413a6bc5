// The interop contract as dubbo-ts declares it (the Java side: java/common/com/foo/InteropService.java),
// and our provider of it, exported through an application as a user would.
import { setTimeout as sleep } from "node:timers/promises";
import { BizError, defineService, getRpcContext, type JavaType, java } from "../../../src/core/index.js";
import { createDubbo, type DubboApplication } from "../../../src/index.js";
import { ColorType } from "../hessian/values.js";

export const INTEROP_SERVICE = "com.foo.InteropService";
export const PICK_SERVICE = "com.foo.PickService";

function echo<T>(type: JavaType<T>) {
  return { args: [type], returns: type } as const;
}

/** Java's com.foo.User: its `long id` takes the whole 64-bit range, so it is a bigint here. */
const UserType = java.Class("com.foo.User", {
  id: java.longBig,
  name: java.String,
  tags: java.List(java.String),
});

export const InteropService = defineService(INTEROP_SERVICE, {
  echoInt: echo(java.int),
  echoShort: echo(java.short),
  echoByte: echo(java.byte),
  echoDouble: echo(java.double),
  echoFloat: echo(java.float),
  echoLong: echo(java.longBig),
  echoString: echo(java.String),
  echoChar: echo(java.char),
  echoBoolean: echo(java.boolean),
  echoBytes: echo(java.bytes),
  echoDate: echo(java.Date),
  echoLocalDate: echo(java.LocalDate),
  echoLocalDateTime: echo(java.LocalDateTime),
  echoInstant: echo(java.Instant),
  echoLocalTime: echo(java.LocalTime),
  echoDuration: echo(java.Duration),
  echoBigDecimal: echo(java.BigDecimal),
  echoBigInteger: echo(java.BigInteger),
  echoUsers: echo(java.List(UserType)),
  echoInts: echo(java.array(java.int)),
  echoSet: echo(java.Set(java.String)),
  echoMap: echo(java.Map(java.Integer, java.String)),
  echoColor: echo(ColorType),
  echoUser: echo(UserType),
  echoObject: echo(java.Object),
  classOf: { args: [java.Object], returns: java.String },
  fail: { args: [java.String], returns: java.void },
  attachment: { args: [java.String], returns: java.String },
  over: { args: [java.String], returns: java.String },
  // Java's overloads of over(): one contract entry each, sent and dispatched by descriptor.
  overInt: { javaName: "over", args: [java.int], returns: java.String },
  overStringInt: { javaName: "over", args: [java.String, java.int], returns: java.String },
  sleep: { args: [java.int], returns: java.String },
  sleepCounted: { args: [java.String, java.int], returns: java.int },
  count: { args: [java.String], returns: java.int },
});

export const PickService = defineService(PICK_SERVICE, {
  whoAmI: { args: [], returns: java.int },
});

const identity = <T>(v: T): T => v;

/** Our provider: what JavaInteropService does, in TypeScript. */
function interopImplementation() {
  const counts = new Map<string, number>();
  return {
    echoInt: identity<number>,
    echoShort: identity<number>,
    echoByte: identity<number>,
    echoDouble: identity<number>,
    echoFloat: identity<number>,
    echoLong: identity<bigint>,
    echoString: identity<string>,
    echoChar: identity<string>,
    echoBoolean: identity<boolean>,
    echoBytes: identity<Uint8Array>,
    echoDate: identity<Date>,
    echoLocalDate: identity<Date>,
    echoLocalDateTime: identity<Date>,
    echoInstant: identity<Date>,
    echoLocalTime: identity<string>,
    echoDuration: identity<string>,
    echoBigDecimal: identity<string>,
    echoBigInteger: identity<bigint>,
    echoUsers: identity,
    echoInts: identity<number[]>,
    echoSet: identity<Set<string>>,
    echoMap: identity<Map<number, string>>,
    echoColor: identity,
    echoUser: identity,
    echoObject: identity<unknown>,
    classOf: (v: unknown) => {
      const javaClass = (v as { $class?: unknown } | null)?.$class;
      return typeof javaClass === "string" ? javaClass : typeof v;
    },
    fail(message: string): void {
      throw new BizError(message, {
        javaClass: "java.lang.IllegalStateException",
        cause: new BizError(`root: ${message}`, { javaClass: "java.lang.IllegalArgumentException" }),
      });
    },
    attachment(key: string) {
      const context = getRpcContext();
      const value = context.getAttachment(key);
      context.setResponseAttachment("reply", `pong-${String(value)}`);
      return String(value);
    },
    over: (s: string) => `S:${s}`,
    overInt: (i: number) => `I:${i}`,
    overStringInt: (s: string, i: number) => `SI:${s}${i}`,
    async sleep(ms: number) {
      await sleep(ms);
      return `slept ${ms}`;
    },
    async sleepCounted(tag: string, ms: number) {
      const n = (counts.get(tag) ?? 0) + 1;
      counts.set(tag, n);
      await sleep(ms);
      return n;
    },
    count: (tag: string) => counts.get(tag) ?? 0,
  };
}

/**
 * Our provider of InteropService on `host:port`, registering the settings the Java provider registers:
 * timeout=3000, and for sleepCounted retries=0 and timeout=300.
 */
export async function startTsProvider(
  registry: string | undefined,
  host: string,
  port: number,
): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name: "ts-provider" },
    protocol: { name: "dubbo", host, port },
    ...(registry === undefined ? {} : { registry: { address: registry } }),
    env: false,
  });
  await app.export(InteropService, interopImplementation(), {
    scope: "remote",
    timeoutMs: 3000,
    methods: { sleepCounted: { retries: 0, timeoutMs: 300 } },
  });
  return app;
}
