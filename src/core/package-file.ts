import { existsSync } from "node:fs";

/**
 * A file of this package by its path from the package's root, where its package.json is (e.g.
 * `packageFile("src/qos/console/console.html")`). The root is found by walking up from this
 * module, because no fixed relative path holds everywhere: the module is src/core/package-file.ts
 * in a checkout, and in the build it is bundled into whichever dist/ file or dist/chunks/ chunk
 * the bundler chose for it.
 */
export function packageFile(path: string): URL {
  let folder = new URL(".", import.meta.url);
  while (!existsSync(new URL("package.json", folder))) {
    const parent = new URL("..", folder);
    if (parent.href === folder.href) {
      throw new Error(
        `dubbo-ts: no package.json in any folder above ${import.meta.url}; reinstall the package`,
      );
    }
    folder = parent;
  }
  return new URL(path, folder);
}
