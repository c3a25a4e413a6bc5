#!/usr/bin/env node
// The dubbo-ts command. An installed package runs its build (dist/, made by `npm pack`), with no
// dev dependency. A source checkout (tsconfig.json is not published) runs the TypeScript sources
// through the dev dependency tsx, so the command never runs a stale build there.
import { existsSync } from "node:fs";

const checkout = existsSync(new URL("../tsconfig.json", import.meta.url));
if (checkout) {
  const { register } = await import("tsx/esm/api");
  register();
}
const cli = await import(checkout ? "../src/cli/main.ts" : "../dist/cli/main.js");
process.exitCode = await cli.main(process.argv.slice(2));
