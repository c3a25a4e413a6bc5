#!/usr/bin/env node
// Runs the built CLI (dist/) when the package is built, else the TypeScript sources through tsx.
import { existsSync } from "node:fs";

const built = new URL("../dist/cli/main.js", import.meta.url);
let cli;
if (existsSync(built)) {
  cli = await import(built.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  cli = await import(new URL("../src/cli/main.ts", import.meta.url).href);
}
const code = await cli.main(process.argv.slice(2));
if (code !== 0) process.exitCode = code;
