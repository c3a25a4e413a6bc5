/**
 * Hessian 2 codec speed: encode and decode ops/s against hessian.js 2.11 and JSON, in one run.
 * Every operation takes the next of several different values (or their bytes), as real traffic
 * does. Each cell is warmed up, then measured in several rounds with the contenders alternating
 * (the machine is shared and noisy); the table shows medians, bytes allocated and GC share per
 * operation (bench/e2e/measure.ts), and PASS/MISS against the 3x target.
 * Run: `npx tsx bench/hessian.ts`.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { java } from "../src/core/index.js";
import { decodeHessian, encodeHessian } from "../src/serialize/hessian2/index.js";
import { type ProcessCost, startCostMeter } from "./e2e/measure.js";
import { textFor } from "./e2e/workloads.js";

interface HessianJs {
  encode(value: unknown, version: "2.0"): Buffer;
  decode(bytes: Buffer, version: "2.0"): unknown;
}
const hessianJs = createRequire(import.meta.url)("hessian.js") as HessianJs;

const User = java.Class("com.foo.User", { id: java.long, name: java.String, tags: java.List(java.String) });
const UserList = java.List(User);

/** One operation of a contender: `n` picks which of the workload's values (or their bytes) it takes. */
type Operation = (n: number) => unknown;

interface Workload {
  readonly name: string;
  /** The first value's encoded sizes, for the table. */
  readonly bytes: { readonly ours: number; readonly hessianJs: number; readonly json: number };
  readonly encode: Record<Contender, Operation>;
  readonly decode: Record<Contender, Operation>;
}

function user(i: number): { id: number; name: string; tags: string[] } {
  return { id: 1000 + i, name: `user-${i}`, tags: ["admin", "beta", `group-${i % 7}`] };
}

/** hessian.js needs the Java types spelled out by hand: that is the wrapping our users complain about. */
function hessianJsUser(u: { id: number; name: string; tags: string[] }): unknown {
  return { $class: "com.foo.User", $: { id: { $class: "long", $: u.id }, name: u.name, tags: u.tags } };
}

/** Different values per workload; fewer of the 1 MiB binary, whose copies would dwarf the caches anyway. */
const VARIANTS = 16;
const BINARY_VARIANTS = 4;

/** A 1 MiB binary with every byte value, so no codec gets a run of zeros to shortcut; `seed` varies it. */
function binaryFor(seed: number): Buffer {
  const binary = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 31 + (i >> 8) + seed * 7) & 255;
  return binary;
}

function mapFor(v: number): Record<string, number> {
  const map: Record<string, number> = {};
  for (let i = 0; i < 100; i++) map[`key-${i}`] = i * 1000 + v;
  return map;
}

interface JsonForm {
  readonly encode: (value: unknown) => string;
  readonly decode: (text: string) => unknown;
}
const PLAIN_JSON: JsonForm = { encode: (v) => JSON.stringify(v), decode: (s) => JSON.parse(s) };
// JSON carries binary as base64, the way a JSON API would.
const BASE64_JSON: JsonForm = {
  encode: (v) => JSON.stringify((v as Buffer).toString("base64")),
  decode: (s) => Buffer.from(JSON.parse(s) as string, "base64"),
};

function workloads(): Workload[] {
  const build = <T>(
    name: string,
    count: number,
    valueFor: (v: number) => T,
    type: Parameters<typeof encodeHessian>[1],
    hessianJsFor: (value: T) => unknown,
    json: JsonForm = PLAIN_JSON,
  ): Workload => {
    const values = Array.from({ length: count }, (_, v) => valueFor(v));
    const theirs = values.map(hessianJsFor);
    // Both Hessian decoders read the same (Java-compatible) bytes.
    const ourBytes = values.map((v) => encodeHessian(v, type));
    const texts = values.map((v) => json.encode(v));
    hessianJs.decode(ourBytes[0]!, "2.0");
    return {
      name,
      bytes: {
        ours: ourBytes[0]!.length,
        hessianJs: hessianJs.encode(theirs[0], "2.0").length,
        json: Buffer.byteLength(texts[0]!),
      },
      encode: {
        ours: (n) => encodeHessian(values[n % count], type),
        "hessian.js": (n) => hessianJs.encode(theirs[n % count], "2.0"),
        JSON: (n) => json.encode(values[n % count]),
      },
      decode: {
        ours: (n) => decodeHessian(ourBytes[n % count]!, type),
        "hessian.js": (n) => hessianJs.decode(ourBytes[n % count]!, "2.0"),
        JSON: (n) => json.decode(texts[n % count]!),
      },
    };
  };
  const users = (length: number) => (v: number) => Array.from({ length }, (_, i) => user(v * length + i));
  const hessianJsUsers = (list: ReturnType<typeof user>[]) => list.map(hessianJsUser);
  return [
    build("1 KB string", VARIANTS, textFor, java.String, (t) => t),
    build("small object (typed class)", VARIANTS, user, User, hessianJsUser),
    build("list of 100 objects", VARIANTS, users(100), UserList, hessianJsUsers),
    build("map of 100 entries", VARIANTS, mapFor, undefined, (m) => m),
    build("list of 1 000 objects", VARIANTS, users(1000), UserList, hessianJsUsers),
    build("1 MiB binary", BINARY_VARIANTS, binaryFor, java.bytes, (b) => b, BASE64_JSON),
  ];
}

interface Measured {
  readonly opsPerCpuSecond: number;
  readonly bytesPerOp: number;
  /** GC time as a share of wall time, in %. */
  readonly gcShare: number;
}

let nextOperation = 0;
/** Runs `op` for about `ms` milliseconds of CPU time (process CPU: time descheduled does not count). */
function measure(op: Operation, ms: number): Measured {
  let ops = 0;
  let batch = 16;
  const meter = startCostMeter();
  const start = process.cpuUsage();
  for (;;) {
    for (let i = 0; i < batch; i++) op(nextOperation++);
    ops += batch;
    const used = process.cpuUsage(start);
    const elapsed = used.user + used.system;
    if (elapsed >= ms * 1000) break;
    if (elapsed < (ms * 1000) / 8) batch *= 2;
  }
  const cost: ProcessCost = meter.stop();
  return {
    opsPerCpuSecond: (ops * 1000) / cost.cpuMs,
    bytesPerOp: cost.allocatedBytes / ops,
    gcShare: (cost.gcMs / cost.wallMs) * 100,
  };
}

const ROUNDS = 5;
const CELL_MS = 150;
const WARMUP_MS = 60;
/** The issue's bar: at least this many times hessian.js, on encode and on decode, for every workload. */
const TARGET = 3;

type Contender = "ours" | "hessian.js" | "JSON";
const CONTENDERS: readonly Contender[] = ["ours", "hessian.js", "JSON"];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Cell {
  /** Median ops/s, bytes allocated per op and GC share per contender. */
  readonly medians: Record<Contender, Measured>;
  /** Median of the per-round ratios ours / hessian.js (each round measures both back to back). */
  readonly ratio: number;
  /** Lowest and highest per-round ratio, to show the noise. */
  readonly ratioRange: readonly [number, number];
}

function measureCell(cells: Record<Contender, Operation>): Cell {
  for (const who of CONTENDERS) measure(cells[who], WARMUP_MS);
  const runs: Record<Contender, Measured[]> = { ours: [], "hessian.js": [], JSON: [] };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate who goes first, so drift on a shared machine does not favour one contender.
    const sequence = round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
    for (const who of sequence) runs[who].push(measure(cells[who], CELL_MS));
    ratios.push(runs.ours[round]!.opsPerCpuSecond / runs["hessian.js"][round]!.opsPerCpuSecond);
  }
  const medianOf = (list: Measured[]): Measured => ({
    opsPerCpuSecond: median(list.map((m) => m.opsPerCpuSecond)),
    bytesPerOp: median(list.map((m) => m.bytesPerOp)),
    gcShare: median(list.map((m) => m.gcShare)),
  });
  return {
    medians: {
      ours: medianOf(runs.ours),
      "hessian.js": medianOf(runs["hessian.js"]),
      JSON: medianOf(runs.JSON),
    },
    ratio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
  };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString("en-US").padStart(12);
}

/** Bytes allocated per op and GC share, compactly: `1.2k B 3 %`. */
function fmtCost(m: Measured): string {
  const bytes = m.bytesPerOp >= 10_000 ? `${(m.bytesPerOp / 1024).toFixed(0)}k` : m.bytesPerOp.toFixed(0);
  return `${`${bytes} B`.padStart(8)} ${`${m.gcShare.toFixed(0)} %`.padStart(4)}`;
}

export interface HessianBenchRow {
  readonly workload: string;
  readonly op: "encode" | "decode";
  readonly cell: Cell;
}

export async function runHessianBench(): Promise<HessianBenchRow[]> {
  const results: HessianBenchRow[] = [];
  const lines: string[] = [];
  const header =
    `${"workload".padEnd(28)} ${"op".padEnd(6)} ${"ours ops/s".padStart(12)} ${"hessian.js".padStart(12)} ` +
    `${"JSON".padStart(12)} ${"vs hessian.js".padStart(14)} ${"(min-max)".padStart(13)} ${"vs JSON".padStart(8)}  ` +
    `${"ours alloc, GC".padStart(13)}  ${"hessian.js".padStart(13)}  target ${TARGET}x`;
  lines.push(header, "-".repeat(header.length));
  const started = Date.now();
  for (const w of workloads()) {
    const encode = measureCell(w.encode);
    const decode = measureCell(w.decode);
    for (const [op, cell] of [
      ["encode", encode],
      ["decode", decode],
    ] as const) {
      results.push({ workload: w.name, op, cell });
      const m = cell.medians;
      const range = `${cell.ratioRange[0].toFixed(1)}-${cell.ratioRange[1].toFixed(1)}`;
      lines.push(
        `${w.name.padEnd(28)} ${op.padEnd(6)} ${fmt(m.ours.opsPerCpuSecond)} ${fmt(m["hessian.js"].opsPerCpuSecond)} ${fmt(m.JSON.opsPerCpuSecond)} ` +
          `${`${cell.ratio.toFixed(2)}x`.padStart(14)} ${`(${range})`.padStart(13)} ` +
          `${`${(m.ours.opsPerCpuSecond / m.JSON.opsPerCpuSecond).toFixed(2)}x`.padStart(8)}  ` +
          `${fmtCost(m.ours)}  ${fmtCost(m["hessian.js"])}  ${cell.ratio >= TARGET ? "PASS" : "MISS"}`,
      );
    }
    lines.push(
      `${"".padEnd(28)} ${"bytes".padEnd(6)} ${String(w.bytes.ours).padStart(12)} ${String(w.bytes.hessianJs).padStart(12)} ${String(w.bytes.json).padStart(12)}`,
    );
  }
  const misses = results.filter((r) => r.cell.ratio < TARGET).length;
  process.stdout.write(
    `Hessian 2 codec (node ${process.version}): ops per CPU second, median of ${ROUNDS} alternating rounds of ${CELL_MS} ms CPU ` +
      `per contender, each op on the next of ${VARIANTS} different values (${BINARY_VARIANTS} binaries); ratio = median of ` +
      `per-round ours/hessian.js; alloc = JS-heap bytes allocated per op, GC = share of wall time\n`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  process.stdout.write(
    `${misses === 0 ? "PASS" : "MISS"}: ${results.length - misses}/${results.length} cells at >= ${TARGET}x hessian.js ` +
      `(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  return results;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runHessianBench();
}
