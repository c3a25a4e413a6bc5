// The two conformance checks every Java Hessian peer passes (Caucho here, Dubbo's own hessian-lite
// under java-dubbo-real/): each fixture Java wrote decodes to the expected JS value, and each value
// we write arrives in Java as the expected Java value.
import {
  type decodeHessian,
  encodeHessian,
  Hessian2Reader,
  Hessian2Writer,
} from "../../../src/serialize/hessian2/index.js";
import { describeJs } from "./describe-js.js";
import { FIXTURE_EXPECTATIONS } from "./fixture-expectations.js";
import { describeInJava, type HarnessRun } from "./java-harness.js";
import { TS_TO_JAVA_CASES } from "./ts-to-java-cases.js";

/** Decodes every value of a frame with one reader, as a Dubbo body is read. */
export function decodeFrame(
  bytes: Uint8Array,
  count: number,
  type?: Parameters<typeof decodeHessian>[1],
): unknown[] {
  const reader = new Hessian2Reader(bytes);
  const values: unknown[] = [];
  for (let i = 0; i < count; i++) values.push(reader.readValue(type));
  return values;
}

/** One line per fixture that decoded to something else than expected (empty when all match). */
export function fixtureMismatches(fixtures: ReadonlyMap<string, Buffer>): string[] {
  const failures: string[] = [];
  for (const [name, expectation] of Object.entries(FIXTURE_EXPECTATIONS)) {
    const bytes = fixtures.get(name);
    if (bytes === undefined) {
      failures.push(`${name}: Java wrote no such fixture`);
      continue;
    }
    let actual: string;
    try {
      actual = describeJs(...decodeFrame(bytes, expectation.values.length, expectation.type));
    } catch (error) {
      actual = `THROWS ${error instanceof Error ? error.message : String(error)}`;
    }
    const wanted = describeJs(...expectation.values);
    if (actual !== wanted) {
      const hex = bytes.toString("hex");
      failures.push(
        `${name}\n    bytes:    ${hex.length > 160 ? `${hex.slice(0, 160)}…` : hex}\n    expected: ${wanted.slice(0, 400)}\n    actual:   ${actual.slice(0, 400)}`,
      );
    }
  }
  return failures;
}

function encodeCase(c: (typeof TS_TO_JAVA_CASES)[number]): Uint8Array {
  if (c.frame !== undefined) return c.frame();
  const body = c.body;
  if (body.length === 1) {
    const [value, type] = body[0] ?? [];
    return encodeHessian(value, type);
  }
  const writer = new Hessian2Writer();
  for (const [value, type] of body) writer.writeValue(value, type);
  return writer.toBuffer();
}

/** Encodes every case, has one Java run read them all, and returns one line per case Java read wrongly. */
export async function javaReadMismatches(harness: HarnessRun): Promise<string[]> {
  const encodeErrors = new Map<number, string>();
  const frames = TS_TO_JAVA_CASES.map((c, i) => {
    try {
      return encodeCase(c);
    } catch (error) {
      encodeErrors.set(i, error instanceof Error ? error.message : String(error));
      return new Uint8Array(0);
    }
  });
  const javaSaw = await describeInJava(harness, frames);
  const failures: string[] = [];
  TS_TO_JAVA_CASES.forEach((c, i) => {
    const actual = encodeErrors.has(i) ? `ENCODE THROWS ${encodeErrors.get(i)}` : (javaSaw[i] ?? "");
    if (actual !== c.expect) {
      failures.push(
        `${c.name}\n    expected: ${c.expect.slice(0, 400)}\n    actual:   ${actual.slice(0, 400)}`,
      );
    }
  });
  return failures;
}
