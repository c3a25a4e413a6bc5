/**
 * Summarises a V8 `.cpuprofile` (from `--cpu-prof`): the functions with the most self time, with
 * their share of the sampled time, then (with `--inclusive`) the functions with the most time
 * spent in them and in what they called, which is what points at the layer to change. With
 * `--by-file`, self time per source file (Node's own frames grouped apart) as a share of the busy
 * (not idle) samples, which compares two profiles of one workload taken under different machine
 * load. With `--folded <out>`, also writes the stacks in the folded format flame-graph tools read
 * (`frame;frame;frame microseconds` per line: speedscope, inferno, flamegraph.pl), leaving out
 * stacks under 0.05 % of the samples so the file stays small enough to keep under docs/perf/.
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [--inclusive] [--by-file] [--folded <out>]`.
 */
import { readFileSync, writeFileSync } from "node:fs";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const args = process.argv.slice(2);
const inclusive = args.includes("--inclusive");
const byFile = args.includes("--by-file");
const foldedAt = args.indexOf("--folded");
const foldedOut = foldedAt < 0 ? undefined : args[foldedAt + 1];
const [file, topText] = args.filter((a, i) => !a.startsWith("--") && (foldedAt < 0 || i !== foldedAt + 1));
if (file === undefined) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top] [--inclusive]");
const top = Number(topText ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

function nameOf(node: ProfileNode): string {
  const frame = node.callFrame;
  const where =
    frame.url === ""
      ? ""
      : ` ${frame.url.replace(/^.*\/(dist|node_modules|bench|src)\//, "$1/")}:${frame.lineNumber + 1}`;
  return `${frame.functionName || "(anonymous)"}${where}`;
}

/** The file a frame belongs to: a `src/`, `bench/` or `node_modules/` path, else Node's or V8's own. */
function fileOf(node: ProfileNode): string {
  const url = node.callFrame.url;
  if (url === "")
    return node.callFrame.functionName.startsWith("(") ? node.callFrame.functionName : "(native)";
  const ours = url.match(/\/(src|bench|node_modules)\/(.*)$/);
  if (ours !== null) return `${ours[1]}/${ours[2]}`;
  return url;
}

const selfMicros = new Map<string, number>();
const fileMicros = new Map<string, number>();
const folded = new Map<string, number>();
const totalMicros = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  total += delta;
  const name = nameOf(nodes.get(id)!);
  selfMicros.set(name, (selfMicros.get(name) ?? 0) + delta);
  const fileName = fileOf(nodes.get(id)!);
  fileMicros.set(fileName, (fileMicros.get(fileName) ?? 0) + delta);
  if (foldedOut !== undefined) {
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      stack.push(nameOf(nodes.get(at)!).replaceAll(";", ","));
    }
    const key = stack.reverse().join(";");
    folded.set(key, (folded.get(key) ?? 0) + delta);
  }
  if (!inclusive) return;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const frameName = nameOf(nodes.get(at)!);
    if (seen.has(frameName)) continue;
    seen.add(frameName);
    totalMicros.set(frameName, (totalMicros.get(frameName) ?? 0) + delta);
  }
});

function print(title: string, micros: Map<string, number>): void {
  const rows = [...micros].sort((a, b) => b[1] - a[1]).slice(0, top);
  process.stdout.write(`${(total / 1000).toFixed(0)} ms sampled; top ${top} by ${title}\n`);
  for (const [name, spent] of rows) {
    process.stdout.write(`${((spent / total) * 100).toFixed(1).padStart(5)} %  ${name}\n`);
  }
}
print("self time", selfMicros);
if (inclusive) print("inclusive time", totalMicros);
if (byFile) {
  const idle = (fileMicros.get("(idle)") ?? 0) + (fileMicros.get("(program)") ?? 0);
  const busy = total - idle;
  const rows = [...fileMicros]
    .filter(([f]) => f !== "(idle)" && f !== "(program)")
    .sort((a, b) => b[1] - a[1]);
  process.stdout.write(`${(busy / 1000).toFixed(0)} ms busy (not idle); self time by file, top ${top}\n`);
  for (const [name, spent] of rows.slice(0, top)) {
    process.stdout.write(`${((spent / busy) * 100).toFixed(1).padStart(5)} %  ${name}\n`);
  }
}
if (foldedOut !== undefined) {
  const kept = [...folded].filter(([, micros]) => micros >= total * 0.0005);
  writeFileSync(foldedOut, `${kept.map(([stack, micros]) => `${stack} ${micros}`).join("\n")}\n`);
}
