// npm run fuzz: a coverage-guided mutation fuzzer of our own, on V8's block coverage (Jazzer.js
// 4.0.0, the maintained coverage-guided fuzzer on npm, ships a native addon built for glibc 2.38
// and does not load on Node 20 here; its 2.x versions download their addon from GitHub at install).
// For each target: the corpus in test/fuzz/corpus/<target>/ is run, then mutated for --seconds;
// an input that reaches new blocks joins the corpus (written there with --save-corpus); one that
// throws anything but the target's documented error, or hangs, is a finding, printed and saved in
// test/fuzz/findings/<target>/. Exits 1 when there is a finding.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createSeededRandom } from "../../src/testing/index.js";
import { startCoverage } from "./coverage.js";
import { mutate } from "./mutate.js";
import type { FuzzTarget } from "./targets.js";
import { startWatchdog } from "./watchdog.js";

const HANG_LIMIT_MS = 5000;
// Started before the code under test is loaded, so V8 counts its blocks from the first run.
const coverage = startCoverage();
const { TARGETS } = await import("./targets.js");
const HERE = fileURLToPath(new URL(".", import.meta.url));
const USAGE = "usage: npm run fuzz -- [--seconds N per target] [--seed N] [--save-corpus] [target ...]";

const args = process.argv.slice(2);
let seconds = 60;
let seed = Date.now() % 1_000_000;
let saveCorpus = false;
const only: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i] ?? "";
  if (arg === "--seconds" || arg === "--seed") {
    const n = Number(args[++i]);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${arg} needs a positive number\n${USAGE}`);
    if (arg === "--seconds") seconds = n;
    else seed = n;
  } else if (arg === "--save-corpus") saveCorpus = true;
  else if (TARGETS.some((t) => t.name === arg)) only.push(arg);
  else
    throw new Error(
      `unknown option or target ${arg} (targets: ${TARGETS.map((t) => t.name).join(", ")})\n${USAGE}`,
    );
}

const name = (input: Buffer) => createHash("sha1").update(input).digest("hex").slice(0, 16);

function fuzz(target: FuzzTarget): number {
  const corpusDir = `${HERE}corpus/${target.name}`;
  const findingsDir = `${HERE}findings/${target.name}`;
  const corpus: Buffer[] = readdirSync(corpusDir).map((f) => readFileSync(`${corpusDir}/${f}`));
  const seeds = corpus.length;
  const watchdog = startWatchdog(target.name, findingsDir, target.maxLength, HANG_LIMIT_MS);
  const seen = new Set<string>();
  const findings = new Set<string>();
  const random = createSeededRandom(seed);
  coverage.blocksRun(target.covers);

  /** Runs one input; true when it reached a block never reached before. */
  function runOne(input: Buffer): boolean {
    watchdog.arm(input);
    try {
      target.run(input);
    } catch (error) {
      if (!target.expected(error)) {
        const file = `crash-${name(input)}`;
        if (!findings.has(file)) {
          findings.add(file);
          mkdirSync(findingsDir, { recursive: true });
          writeFileSync(`${findingsDir}/${file}`, input);
          process.stdout.write(
            `FINDING ${target.name}: ${String((error as Error)?.stack ?? error)}\n  input saved as test/fuzz/findings/${target.name}/${file}\n`,
          );
        }
      }
    }
    let fresh = false;
    for (const block of coverage.blocksRun(target.covers)) {
      if (!seen.has(block)) {
        seen.add(block);
        fresh = true;
      }
    }
    return fresh;
  }

  for (const input of corpus) runOne(input);
  const until = Date.now() + seconds * 1000;
  let runs = 0;
  while (Date.now() < until) {
    const base = corpus[Math.floor(random() * corpus.length)] ?? Buffer.alloc(0);
    const other = corpus[Math.floor(random() * corpus.length)] ?? Buffer.alloc(0);
    const input = mutate(base, other, random, target.maxLength);
    runs++;
    if (runOne(input)) {
      corpus.push(input);
      if (saveCorpus) writeFileSync(`${corpusDir}/${name(input)}`, input);
    }
  }
  void watchdog.stop();
  process.stdout.write(
    `${target.name}: ${runs} inputs in ${seconds} s (seed ${seed}), ${seen.size} blocks covered, corpus ${seeds} -> ${corpus.length}, findings ${findings.size}\n`,
  );
  return findings.size;
}

let total = 0;
for (const target of TARGETS) if (only.length === 0 || only.includes(target.name)) total += fuzz(target);
coverage.stop();
process.exit(total > 0 ? 1 : 0);
