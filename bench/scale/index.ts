// `npm run bench -- scale [--only cache|idle|directory] [--services N] [--connections N]
// [--providers N]
// [--rounds n] [--changes n] [--profile]`: the at-scale figures.
import { runCacheFileScaleBench } from "./cache-file.js";
import { runDirectoryScaleBench } from "./directory.js";
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
  if (only !== undefined && only !== "directory") return;
  await runDirectoryScaleBench({
    count: Number(value("--providers") ?? 10_000),
    rounds: Math.max(1, Number(value("--rounds") ?? 2)),
    changes: Math.max(1, Number(value("--changes") ?? 5)),
    profileDir: argv.includes("--profile") ? ".tmp/scale-profile" : undefined,
  });
}
