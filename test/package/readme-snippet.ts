import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../run-process.js";

/** The README's TypeScript snippets, in order, exactly as a reader copies them. */
export function readmeSnippets(): string[] {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const snippets = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  if (snippets.length === 0) throw new Error("README.md has no ```ts snippet");
  return snippets;
}
