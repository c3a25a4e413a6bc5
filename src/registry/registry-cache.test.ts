import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { silentLogger, Url } from "../core/index.js";
import { properties, renderProperties } from "./properties-format.js";
import type { RegistryLogger } from "./registry.js";
import { RegistryCacheFile, registryCachePath } from "./registry-cache.js";

const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-cache-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const logger: RegistryLogger = silentLogger;
let n = 0;
const file = () => join(dir, `c${++n}`, "registry.cache");
const url = (port: number) =>
  Url.parse(`dubbo://10.0.0.5:${port}/com.foo.Demo?interface=com.foo.Demo&version=1.0.0`);

test("registry cache - default path is ~/.dubbo/dubbo-registry-{application}-{address}.cache; file= overrides", () => {
  const registry = Url.parse("zookeeper://127.0.0.1:2181?application=demo");
  assert.match(registryCachePath(registry), /[/\\]\.dubbo[/\\]dubbo-registry-demo-127\.0\.0\.1-2181\.cache$/);
  assert.equal(registryCachePath(registry.withParams({ file: "/tmp/x.cache" })), "/tmp/x.cache");
});

test("registry cache - saves Java properties text atomically and a new instance reads it back", async () => {
  const path = file();
  const cache = new RegistryCacheFile({ file: path, sync: false, logger });
  cache.set("g/com.foo.Demo:1.0.0", [url(1), url(2)]);
  await cache.flush();
  const text = readFileSync(path, "latin1");
  assert.match(text, /^#Dubbo Registry Cache\n/);
  assert.match(
    text,
    /^g\/com\.foo\.Demo\\:1\.0\.0=dubbo\\:\/\/10\.0\.0\.5\\:1\/com\.foo\.Demo\?interface\\=com\.foo\.Demo&version\\=1\.0\.0 dubbo/m,
  );
  assert.deepEqual(readdirSync(join(path, "..")), ["registry.cache"], "no temp file is left behind");
  const again = new RegistryCacheFile({ file: path, sync: true, logger });
  assert.deepEqual(
    again.urls("g/com.foo.Demo:1.0.0", Url.parse).map((u) => u.port),
    [1, 2],
  );
});

test("registry cache - an older version never replaces a newer one", async () => {
  const path = file();
  const cache = new RegistryCacheFile({ file: path, sync: false, logger });
  cache.set("k", [url(1)]);
  const older = cache.snapshot();
  cache.set("k", [url(2)]);
  const newer = cache.snapshot();
  await cache.flush();
  assert.equal(await cache.write(newer), false, "the same version is not written twice");
  assert.equal(await cache.write(older), false);
  assert.match(readFileSync(path, "latin1"), /10\.0\.0\.5\\:2\//);
  // Concurrent writes finishing in either order still leave the newest.
  cache.set("k", [url(3)]);
  const v3 = cache.snapshot();
  cache.set("k", [url(4)]);
  const v4 = cache.snapshot();
  await Promise.all([cache.write(v4), cache.write(v3)]);
  await cache.flush();
  assert.match(readFileSync(path, "latin1"), /10\.0\.0\.5\\:4\//);
});

test("registry cache - keeps the keys another process wrote (rename-only sharing)", async () => {
  const path = file();
  const first = new RegistryCacheFile({ file: path, sync: true, logger });
  const second = new RegistryCacheFile({ file: path, sync: true, logger });
  first.set("a", [url(1)]);
  second.set("b", [url(2)]);
  first.set("a", [url(3)]);
  const onDisk = properties(readFileSync(path, "latin1"));
  assert.deepEqual([...onDisk.keys()].sort(), ["a", "b"]);
  assert.match(onDisk.get("a") ?? "", /:3\//);
  assert.match(onDisk.get("b") ?? "", /:2\//);
});

test("registry cache - a corrupt or foreign file is read as properties without crashing", () => {
  const path = join(dir, "foreign.cache");
  writeFileSync(path, "#x\n  key\\ one = v\\u00e9 \\\n  continued\n! comment\nbare\n", "latin1");
  const cache = new RegistryCacheFile({ file: path, sync: true, logger });
  assert.equal(cache.get("key one"), "vé continued");
  assert.equal(cache.get("bare"), "");
  const round = properties(renderProperties("c", new Map([["k:1 x", "a=b c:d é"]])));
  assert.equal(round.get("k:1 x"), "a=b c:d é");
});

test("registry cache - keys and values are escaped as Java's Properties.store escapes them", () => {
  const key = "g/a b:1=#!";
  const value = " lead\\tab\t\n\r\f é\u0001\u4e2d=:#! end";
  const text = renderProperties("c", new Map([[key, value]]));
  const line = text.split("\n")[2];
  assert.equal(line, "g/a\\ b\\:1\\=\\#\\!=\\ lead\\\\tab\\t\\n\\r\\f \\u00E9\\u0001\\u4E2D\\=\\:\\#\\! end");
  assert.equal(properties(text).get(key), value);
  // A writer skips the values of keys it is about to replace.
  assert.deepEqual([...properties(`${text}other=1\n`, new Set([key]))], [["other", "1"]]);
});
