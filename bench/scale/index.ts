// `npm run bench -- scale [--providers N] [--rounds n] [--changes n] [--profile]`: the at-scale figures.
import { runDirectoryScaleBench } from "./directory.js";

export async function runScaleBench(argv: readonly string[]): Promise<void> {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  await runDirectoryScaleBench({
    count: Number(value("--providers") ?? 10_000),
    rounds: Math.max(1, Number(value("--rounds") ?? 2)),
    changes: Math.max(1, Number(value("--changes") ?? 5)),
    profileDir: argv.includes("--profile") ? ".tmp/scale-profile" : undefined,
  });
}
