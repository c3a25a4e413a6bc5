/**
 * Summarises a V8 `.cpuprofile` (from `--cpu-prof`): the functions with the most self time, with
 * their share of the sampled time. `npx tsx bench/profile-summary.ts <file.cpuprofile> [top]`.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const file = process.argv[2];
if (file === undefined) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfMicros = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = nodes.get(id)!.callFrame;
  const where =
    frame.url === ""
      ? ""
      : ` ${frame.url.replace(/^.*\/(dist|node_modules|bench)\//, "$1/")}:${frame.lineNumber + 1}`;
  const name = `${frame.functionName || "(anonymous)"}${where}`;
  const delta = profile.timeDeltas[i] ?? 0;
  selfMicros.set(name, (selfMicros.get(name) ?? 0) + delta);
  total += delta;
});
const rows = [...selfMicros].sort((a, b) => b[1] - a[1]).slice(0, top);
process.stdout.write(`${(total / 1000).toFixed(0)} ms sampled; top ${top} by self time\n`);
for (const [name, micros] of rows) {
  process.stdout.write(`${((micros / total) * 100).toFixed(1).padStart(5)} %  ${name}\n`);
}
