/**
 * Summarises a V8 `.cpuprofile` (from `--cpu-prof`): the functions with the most self time, with
 * their share of the sampled time, then (with `--inclusive`) the functions with the most time
 * spent in them and in what they called, which is what points at the layer to change.
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [--inclusive]`.
 */
import { readFileSync } from "node:fs";

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
const [file, topText] = args.filter((a) => !a.startsWith("--"));
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

const selfMicros = new Map<string, number>();
const totalMicros = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  total += delta;
  const name = nameOf(nodes.get(id)!);
  selfMicros.set(name, (selfMicros.get(name) ?? 0) + delta);
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
