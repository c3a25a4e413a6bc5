import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EncodedUrlTemplate, javaUrlEncode, type Protocol, silentLogger, Url } from "../../core/index.js";
import { createSeededRandom, FakeInvoker } from "../../testing/index.js";
import { RegistryDirectory } from "../directory/index.js";
import type { Registry } from "../registry.js";
import { isMatch } from "../url-match.js";
import { ChildNames } from "./child-names.js";
import { ChildUrls } from "./child-urls.js";

const SERVICE = "com.test.Templated";
const consumer = Url.parse(
  `consumer://127.0.0.1/${SERVICE}?interface=${SERVICE}&application=c&check=false&side=consumer`,
);
const subscription = consumer.withParams({ category: "providers,configurators,routers" });

/** A Java-shaped provider's parameters, in Java's order. */
function javaParams(i: number): Array<[string, string]> {
  return [
    ["anyhost", "true"],
    ["application", "p"],
    ["dubbo", "2.0.2"],
    ["interface", SERVICE],
    ["methods", "a,b"],
    ["pid", String(1000 + i)],
    ["side", "provider"],
    ["timestamp", String(1_700_000_000_000 + i)],
    ["weight", "100"],
  ];
}

const encodeParams = (params: ReadonlyArray<readonly [string, string]>): string =>
  params.map(([k, v]) => `${javaUrlEncode(k)}%3D${javaUrlEncode(v)}`).join("%26");

/**
 * Node names of one service, most of them siblings that differ by host, port, `pid` and
 * `timestamp`, the rest varied in every way the template must refuse or read as `Url.decode` does.
 */
function variedNames(seed: number, count: number): string[] {
  const random = createSeededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const params = javaParams(i);
    let host = `10.0.${(i >> 8) & 255}.${i & 255}`;
    let port = "20880";
    let head = (h: string, p: string): string => `dubbo%3A%2F%2F${h}%3A${p}%2F${SERVICE}%3F`;
    let query = (): string => encodeParams(params);
    if (random() < 0.5) {
      const variant = pick([
        () => (host = `host-${i}.example_net`),
        () => (host = "%5B%3A%3A1%5D"), // [::1]
        () => (host = `u%3Apw%40${host}`), // credentials
        () => (host = `h%41${i}`), // an escape in the host
        () => (host = `h+${i}`),
        () => (port = ""),
        () => (port = "020880"),
        () => (port = "70000"),
        () => (port = String(20000 + i)),
        () => (head = (h) => `dubbo%3A%2F%2F${h}%2F${SERVICE}%3F`), // no port
        () => (head = (h, p) => `tri%3A%2F%2F${h}%3A${p}%2F${SERVICE}%3F`),
        () => (head = (h, p) => `dubbo%3A%2F%2F${h}%3A${p}%2Fother.Path%3F`),
        () => (params[8] = ["weight", String(i % 7)]),
        () => (params[1] = ["application", "a&b=c d%é"]),
        () => params.splice(4, 0, ["group", pick(["g1", "g2", ""])]),
        () => params.splice(2, 0, ["version", "1.0"]),
        () => params.splice(3, 1),
        () => params.reverse(),
        () => params.push(["default.timeout", "5"]),
        () => params.push(["pid", "7"]),
        () => params.push(["category", pick(["configurators", "providers"])]),
        () => params.push(["enabled", "false"]),
        () => params.push(["disabled", "true"]),
        () => (params[3] = ["interface", "com.test.Other"]),
        () => (params[5] = ["pid", `1%3D${i}`]),
        () => (params[7] = ["timestamp", `x+y%2B${i}`]),
        () => (params[5] = ["pid", ""]),
        () => (query = () => `${encodeParams(params)}%26flag`),
        () => (query = () => `${encodeParams(params)}%26`),
        () => (query = () => encodeParams(params).replace("%26pid", "%26%26pid")),
        () => (query = () => encodeParams(params).replace("pid%3D", "pid%3d")),
        () => (query = () => encodeParams(params).replace("%26side", "%26%26side")),
        () => (query = () => `${encodeParams(params)}%ZZ`),
        () => (query = () => encodeParams(params).replace("%26timestamp%3D", "%26timestamp%3D%26")),
      ]);
      variant();
    }
    names.push(head(host, port) + query());
  }
  return names;
}

/** `url` as every part and string a caller can read. */
function partsOf(url: Url): unknown {
  return {
    protocol: url.protocol,
    username: url.username,
    password: url.password,
    host: url.host,
    port: url.port,
    path: url.path,
    params: [...url.params],
    size: url.params.size,
    full: url.toFullString(),
    string: url.toString(),
    serviceKey: url.serviceKey,
  };
}

/** What `Url.decode` and `isMatch` alone make of `name`: the URL, SKIPPED (null) or unreadable. */
function decodedAlone(name: string): Url | null {
  if (!name.includes("%3A%2F%2F")) return null;
  try {
    const url = Url.decode(name);
    return isMatch(subscription, url) ? url : null;
  } catch {
    return null;
  }
}

/** The directories here are notified by hand; their registry is only asked to unsubscribe. */
const handNotified = {
  url: Url.parse("fake://127.0.0.1:1"),
  ...{ unsubscribe: async () => {}, isAvailable: () => true },
} as unknown as Registry;

const referringFakes: Protocol = {
  name: "dubbo",
  defaultPort: 20880,
  export: async () => {
    throw new Error("not used");
  },
  refer: async (url) => new FakeInvoker({ url }),
  destroy: async () => {},
};

/** What a directory makes of `urls`: its invokers' URLs in order, its exclusions, its reference URL. */
async function directoryOf(
  urls: readonly Url[],
): Promise<{ invokers: string[]; excluded: unknown; url: string }> {
  const directory = new RegistryDirectory({
    consumerUrl: consumer,
    registry: handNotified,
    protocol: referringFakes,
    logger: silentLogger,
  });
  directory.notify(urls);
  await directory.settled();
  const result = {
    invokers: directory.all().map((invoker) => invoker.url.toFullString()),
    excluded: [...directory.excluded()],
    url: directory.overriddenUrl.toFullString(),
  };
  await directory.destroy();
  return result;
}

describe("child urls read by a template", () => {
  test("template - a sibling's name decodes as Url.decode reads it, sharing the template's values", () => {
    const [first, second] = [0, 1].map(
      (i) => `dubbo%3A%2F%2F10.0.0.${i}%3A20880%2F${SERVICE}%3F${encodeParams(javaParams(i))}`,
    );
    const template = EncodedUrlTemplate.of(first!, Url.decode(first!), new Set(["pid", "timestamp"]));
    const sibling = template?.decode(second!);
    assert.ok(sibling !== undefined, "a sibling fits");
    assert.deepEqual(partsOf(sibling), partsOf(Url.decode(second!)));
    assert.deepEqual(template?.variableNames, ["pid", "timestamp"]);
    assert.equal(
      template?.decode(second!.replace("weight%3D100", "weight%3D101")),
      undefined,
      "a constant value differs",
    );
  });

  test("child urls - providers of two shapes interleaved (a rolling upgrade) are each read by their shape's template", () => {
    const names: string[] = [];
    for (let i = 0; i < 400; i++) {
      const params = javaParams(i);
      // Every other provider is of the new release: one parameter more.
      if (i % 2 === 1) params.splice(5, 0, ["release", "3.3.6"]);
      names.push(`dubbo%3A%2F%2F10.0.${i >> 8}.${i & 255}%3A20880%2F${SERVICE}%3F${encodeParams(params)}`);
    }
    const decode = Url.decode;
    let fullDecodes = 0;
    Url.decode = (encoded: string) => {
      fullDecodes++;
      return decode.call(Url, encoded);
    };
    try {
      const urls = new ChildUrls(subscription, "/dubbo", silentLogger).urls(ChildNames.of(names));
      assert.equal(urls.length, 400);
      assert.deepEqual(partsOf(urls[399]!), partsOf(decode.call(Url, names[399]!)));
    } finally {
      Url.decode = decode;
    }
    // The first two names of each shape teach its template which values vary; the rest fit it.
    assert.ok(fullDecodes <= 6, `${fullDecodes} of 400 names needed the full decode`);
  });

  for (const seed of [1, 2, 3, 4]) {
    test(`child urls - seeded varied names (seed ${seed}) come out as Url.decode and isMatch make them, part for part`, async () => {
      const names = variedNames(seed, 600);
      const childUrls = new ChildUrls(subscription, "/dubbo", silentLogger);
      const templated = childUrls.urls(ChildNames.of(names));
      const alone = names.map(decodedAlone).filter((url): url is Url => url !== null);
      assert.ok(alone.length > 300, "most names are wanted providers");
      assert.equal(templated.length, alone.length);
      for (let i = 0; i < alone.length; i++)
        assert.deepEqual(partsOf(templated[i]!), partsOf(alone[i]!), `url ${i}`);
      assert.deepEqual(await directoryOf(templated), await directoryOf(alone));
    });
  }
});
