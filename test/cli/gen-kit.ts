// What the `dubbo-ts gen` tests share: gen run as a user runs it (the bin, as a process), the
// contract's methods as javap prints them, and a strict type-check of the generated module.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { javaMethodName, parameterDescriptor, type ServiceDefinition } from "../../src/core/index.js";
import { type Finished, REPO_ROOT } from "../run-process.js";
import { dubboTs } from "./run-cli.js";

const SRC_INDEX = join(REPO_ROOT, "src", "index.js");

/** Runs gen into `out` importing the project's sources; returns the module's path and text. */
export async function gen(
  out: string,
  ...args: string[]
): Promise<{ file: string; text: string; run: Finished }> {
  const run = await dubboTs("gen", ...args, "--out", out, "--import-from", relative(out, SRC_INDEX));
  assert.equal(run.code, 0, run.stderr);
  const file = join(out, "contracts.ts");
  return { file, text: readFileSync(file, "utf8"), run };
}

/** Each entry as `javaName(descriptor)return`, as javap prints a method. */
export function contractSignatures(...definitions: ServiceDefinition[]): string[] {
  return definitions
    .flatMap((d) =>
      Object.entries(d.methods).map(
        ([key, m]) => `${javaMethodName(key, m)}(${parameterDescriptor(m.args)})${m.returns.descriptor}`,
      ),
    )
    .sort();
}

/** tsc with the project's strict settings over the generated module and a file that uses it. */
export function typeCheck(dir: string, files: readonly string[]): void {
  const tsconfig = join(dir, "tsconfig.json");
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(REPO_ROOT, "tsconfig.json"),
      compilerOptions: { noEmit: true },
      include: files,
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig],
    {
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  assert.equal(tsc.status, 0, `the generated contract does not type-check:\n${tsc.stdout}${tsc.stderr}`);
}

/** Writes `out/use.ts` (importing ServiceStub, then `code`) and type-checks it with the generated module. */
export function typeCheckUse(dir: string, out: string, file: string, code: string): void {
  const use = join(out, "use.ts");
  writeFileSync(
    use,
    `import type { ServiceStub } from ${JSON.stringify(relative(out, SRC_INDEX))};\n${code}`,
  );
  typeCheck(dir, [file, use]);
}
