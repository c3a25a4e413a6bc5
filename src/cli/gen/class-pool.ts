// The classes of a jar or of a classes directory, parsed, by binary name.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type ClassFile, parseClassFile } from "./class-file.js";
import { readJarEntries } from "./jar-reader.js";

export type ClassPool = ReadonlyMap<string, ClassFile>;

const isClassFile = (name: string): boolean =>
  name.endsWith(".class") && !name.endsWith("module-info.class") && !name.endsWith("package-info.class");

/** Reads every class of `source` (a `.jar`/`.zip` file or a directory of `.class` files). */
export function loadClassPool(source: string): ClassPool {
  const files = statSync(source).isDirectory()
    ? classesOfDirectory(source)
    : readJarEntries(
        readFileSync(source),
        source,
        (name) => isClassFile(name) && !name.startsWith("META-INF/"),
      );
  const pool = new Map<string, ClassFile>();
  for (const [path, bytes] of files) {
    const parsed = parseClassFile(bytes, `${source}!${path}`);
    pool.set(parsed.name, parsed);
  }
  return pool;
}

function classesOfDirectory(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && isClassFile(entry.name)) {
      const path = join(entry.parentPath, entry.name);
      files.set(path.slice(root.length + 1), readFileSync(path));
    }
  }
  return files;
}
