// `npm run bench -- scale [--only cache|idle|directory|cold] [--services N] [--connections N]
// [--providers N] [--invokers dubbo,eager,bare]
// [--rounds n] [--changes n] [--profile]`: the at-scale figures.
import { runCacheFileScaleBench } from "./cache-file.js";
import { runColdStartBench } from "./cold-start.js";
import { INVOKER_KINDS, type InvokerKind, runDirectoryScaleBench } from "./directory.js";
import { runIdleConnectionsBench } from "./idle-connections.js";

export async function runScaleBench(argv: readonly string[]): Promise<void> {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const only = value("--only");
  if (only === undefined || only === "cache") {
    await runCacheFileScaleBench({
      services: Number(value("--services") ?? 1000),
      rounds: Math.max(2, Number(value("--rounds") ?? 2)),
    });
  }
  if (only === undefined || only === "idle") {
    await runIdleConnectionsBench({
      count: Number(value("--connections") ?? 5000),
      rounds: Math.max(1, Number(value("--rounds") ?? 2)),
    });
  }
  if (only === undefined || only === "cold") {
    await runColdStartBench({ rounds: Math.max(2, Number(value("--rounds") ?? 3)) });
  }
  if (only !== undefined && only !== "directory") return;
  const invokers = (value("--invokers") ?? "dubbo,eager,bare").split(",");
  const unknown = invokers.filter((k) => !INVOKER_KINDS.includes(k as InvokerKind));
  if (unknown.length > 0) {
    throw new Error(`--invokers ${unknown.join(",")}: give a list of ${INVOKER_KINDS.join(", ")}`);
  }
  await runDirectoryScaleBench({
    count: Number(value("--providers") ?? 10_000),
    rounds: Math.max(1, Number(value("--rounds") ?? 2)),
    changes: Math.max(1, Number(value("--changes") ?? 5)),
    profileDir: argv.includes("--profile") ? ".tmp/scale-profile" : undefined,
    invokers: invokers as InvokerKind[],
  });
}
