// `npm run build`: the package's dist/. tsc writes the type declarations (.d.ts and their maps);
// esbuild writes the runtime JavaScript as one ESM bundle per public entry, split into chunks.
// Why a bundle: Node pays a fixed cost per ES module file (resolve, stat, read, compile: ~0.7 ms
// each), and tsc's one file per source module made that most of a cold start. Code splitting
// keeps the lazy parts lazy: what the sources reach only by dynamic `import()` (Triple, the
// ZooKeeper registry, the embedded registry, QoS, the console's registry view) becomes chunks
// loaded on first use. Every package dependency stays external, resolved from the application's
// node_modules as before; source maps point stack traces at src/ (published with the package).
// A module that reads a file of the package finds it with core/package-file.ts, since no module
// knows which file of dist/ it is bundled into.
//   node scripts/build.mjs
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));

/** The files the package's `exports` map and its bin name; each keeps its path under dist/. */
const ENTRY_POINTS = ["src/index.ts", "src/extension.ts", "src/internal.ts", "src/cli/main.ts"];

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--emitDeclarationOnly"], {
  cwd: root,
  stdio: "inherit",
});
await build({
  absWorkingDir: root,
  entryPoints: ENTRY_POINTS,
  outdir: "dist",
  outbase: "src",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  // The sources ship in the package, so the maps name them instead of embedding them.
  sourcesContent: false,
  logLevel: "warning",
});
