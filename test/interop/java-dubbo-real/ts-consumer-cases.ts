// What our consumer checks against a Java provider of InteropService (java/common/dubbots/interop/
// JavaInteropService.java): the type table of ConsumerCases.java, sent from TypeScript, an exception
// with its cause, attachments both ways, $echo and a generic call. Each check returns what arrived,
// so a test file asserts on it and a failure shows the value.
import assert from "node:assert/strict";
import { it } from "node:test";
import { inspect, isDeepStrictEqual } from "node:util";
import { BizError, runWithRpcContext } from "../../../src/core/index.js";
import type { ConsumerStub, GenericStub } from "../../../src/index.js";
import { jobj, patternBytes, patternString } from "../hessian/values.js";
import type { InteropService } from "./interop-contract.js";

export type InteropStub = ConsumerStub<(typeof InteropService)["methods"]>;

interface EchoCase {
  readonly name: string;
  readonly call: (stub: InteropStub) => Promise<unknown>;
  /** What comes back: what was sent unless the Java type rounds it. */
  readonly expected: unknown;
}

function echo<V>(
  name: string,
  value: V,
  call: (stub: InteropStub, value: V) => Promise<unknown>,
  expected: unknown = value,
): EchoCase {
  return { name, call: (stub) => call(stub, value), expected };
}

/** A com.foo.User as the codec decodes one (its class on the prototype). */
function javaUser<Id extends number | bigint>(id: Id, name: string, tags: string[]) {
  return jobj("com.foo.User", { id, name, tags });
}

/** The rows of ConsumerCases.typeTable, as a TypeScript caller sends them. */
const TYPE_TABLE: readonly EchoCase[] = [
  ...[0, -16, 47, 2047, -262144, -(2 ** 31), 2 ** 31 - 1].map((v) =>
    echo(`int.${v}`, v, (s, x) => s.echoInt(x)),
  ),
  echo("short.-32768", -32768, (s, x) => s.echoShort(x)),
  echo("byte.-128", -128, (s, x) => s.echoByte(x)),
  ...[0, -0.5, 12.25, 1e300, Number.MAX_VALUE, Number.NaN].map((v) =>
    echo(`double.${v}`, v, (s, x) => s.echoDouble(x)),
  ),
  // hessian-lite writes a float as the double of its shortest decimal text: 0.1f arrives as 0.1.
  ...[1.5, 0.1].map((v) => echo(`float.${v}`, v, (s, x) => s.echoFloat(x))),
  // echoLong is declared java.longBig (the Java side sends Long.MAX_VALUE): every long is a bigint.
  ...[0n, 2047n, -2049n, 2147483648n, 9007199254740993n, 2n ** 63n - 1n, -(2n ** 63n)].map((v) =>
    echo(`long.${v}`, v, (s, x) => s.echoLong(x)),
  ),
  ...["", "h\u00e9llo \u2603 \u{1f600}", patternString(70000)].map((v) =>
    echo(`string.${v.length}`, v, (s, x) => s.echoString(x)),
  ),
  echo("char", "\u2603", (s, x) => s.echoChar(x)),
  echo("boolean", true, (s, x) => s.echoBoolean(x)),
  // Bytes arrive as a Buffer.
  ...[0, 100, 70000].map((n) =>
    echo(`bytes.${n}`, patternBytes(n), (s, x) => s.echoBytes(x), Buffer.from(patternBytes(n))),
  ),
  echo("Date", new Date(1700000000123), (s, x) => s.echoDate(x)),
  echo("LocalDate", new Date(Date.UTC(2024, 1, 29)), (s, x) => s.echoLocalDate(x)),
  echo("LocalDateTime", new Date(Date.UTC(2024, 1, 29, 13, 45, 30, 123)), (s, x) => s.echoLocalDateTime(x)),
  echo("Instant", new Date(1700000000123), (s, x) => s.echoInstant(x)),
  echo("LocalTime", "13:45:30.123", (s, x) => s.echoLocalTime(x)),
  echo("Duration", "PT1.5S", (s, x) => s.echoDuration(x)),
  // A BigDecimal comes back as Java's BigDecimal.toString writes it.
  ...[
    ["100.06", "100.06"],
    ["-0.000000001", "-1E-9"],
    ["123456789012345678901234567890.123", "123456789012345678901234567890.123"],
  ].map(([sent, text]) => echo(`BigDecimal.${sent}`, sent as string, (s, x) => s.echoBigDecimal(x), text)),
  ...[2n ** 100n, -1n].map((v) => echo(`BigInteger.${v}`, v, (s, x) => s.echoBigInteger(x))),
  echo("List<User>", [javaUser(1n, "ann", ["a", "b"]), javaUser(2n, "bob", [])], (s, x) => s.echoUsers(x)),
  echo("int[]", [1, -2, 300000], (s, x) => s.echoInts(x)),
  echo("Set<String>", new Set(["x", "y"]), (s, x) => s.echoSet(x)),
  echo(
    "Map<Integer,String>",
    new Map([
      [1, "one"],
      [2, "two"],
    ]),
    (s, x) => s.echoMap(x),
  ),
  echo("enum", "GREEN", (s, x) => s.echoColor(x as "GREEN")),
  echo("User", javaUser(9007199254740993n, "ann", ["x"]), (s, x) => s.echoUser(x)),
];

/** Every type-table row that did not come back as sent: its name, what came back or what failed. */
async function typeTableMismatches(stub: InteropStub): Promise<string[]> {
  const mismatches: string[] = [];
  for (const row of TYPE_TABLE) {
    try {
      const got = await row.call(stub);
      if (!isDeepStrictEqual(got, row.expected))
        mismatches.push(`${row.name}: got ${inspect(got, { maxStringLength: 80, maxArrayLength: 8 })}`);
    } catch (error) {
      mismatches.push(`${row.name}: threw ${(error as Error).message}`);
    }
  }
  return mismatches;
}

/** What a provider's exception looks like here: its Java class, message and cause. */
async function thrownBy(call: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    return { returned: await call() };
  } catch (error) {
    if (!(error instanceof BizError)) return { notBizError: String(error) };
    const cause = error.cause;
    return {
      class: error.javaClass,
      message: error.message,
      causeClass: cause instanceof BizError ? cause.javaClass : String(cause),
      causeMessage: cause instanceof Error ? cause.message : undefined,
    };
  }
}

/** Sends attachment req=ping; answers what the provider received and what it sent back as `reply`. */
function attachmentRoundTrip(stub: InteropStub): Promise<{ received: string; replied: unknown }> {
  return runWithRpcContext(async (context) => {
    context.setAttachment("req", "ping");
    const received = await stub.attachment("req");
    return { received, replied: context.getReceivedAttachment("reply") };
  });
}

/**
 * The cases our consumer passes against a Java provider (`label` names it and the way our stubs
 * found it): the type table, an exception with its cause, attachments both ways, $echo, generic.
 */
export function itCallsJavaProvider(
  label: string,
  target: () => { stub: InteropStub; generic: GenericStub },
): void {
  it(`${label} - every type-table value comes back as the same value`, async () => {
    assert.deepEqual(await typeTableMismatches(target().stub), []);
  });

  it(`${label} - a Java exception arrives as a BizError with its class, message and cause`, async () => {
    assert.deepEqual(await thrownBy(() => target().stub.fail("boom")), {
      class: "java.lang.IllegalStateException",
      message: "boom",
      causeClass: "java.lang.IllegalArgumentException",
      causeMessage: "root: boom",
    });
  });

  it(`${label} - attachments travel both ways`, async () => {
    assert.deepEqual(await attachmentRoundTrip(target().stub), { received: "ping", replied: "pong-ping" });
  });

  it(`${label} - $echo answers what it was sent`, async () => {
    assert.equal(await target().stub.$echo("hi"), "hi");
    assert.deepEqual(await target().stub.$echo(javaUser(5, "echo", ["e"])), javaUser(5, "echo", ["e"]));
  });

  it(`${label} - a generic $invoke sends and gets POJOs as maps`, async () => {
    const { generic } = target();
    const sent = { class: "com.foo.User", id: 7, name: "gen", tags: ["g"] };
    assert.deepEqual(
      await generic.$invoke("echoUser", ["com.foo.User"], [sent]),
      new Map<string, unknown>(Object.entries(sent)),
    );
    assert.equal(await generic.$invoke("echoLong", ["long"], [9007199254740993n]), 9007199254740993n);
  });
}
