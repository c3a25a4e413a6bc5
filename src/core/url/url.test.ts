import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Url } from "./url.js";
import { javaUrlDecode, javaUrlEncode } from "./url-encoding.js";

// A real Java Dubbo 2.7.3 provider registration and the node name ZooKeeper holds for it.
const JAVA_PROVIDER =
  "dubbo://192.168.0.102:20881/com.foo.DemoService?anyhost=true&application=demo&deprecated=false&dubbo=2.0.2&dynamic=true&generic=false&interface=com.foo.DemoService&methods=sayHello,sayHelloAsync&pid=17134&release=2.7.3&side=provider&timestamp=1564826098503&version=1.0.0";
const JAVA_PROVIDER_NODE =
  "dubbo%3A%2F%2F192.168.0.102%3A20881%2Fcom.foo.DemoService%3Fanyhost%3Dtrue%26application%3Ddemo%26deprecated%3Dfalse%26dubbo%3D2.0.2%26dynamic%3Dtrue%26generic%3Dfalse%26interface%3Dcom.foo.DemoService%26methods%3DsayHello%2CsayHelloAsync%26pid%3D17134%26release%3D2.7.3%26side%3Dprovider%26timestamp%3D1564826098503%26version%3D1.0.0";

describe("Url", () => {
  it("parse - reads every part of a Java 2.7 provider URL", () => {
    const url = Url.parse(JAVA_PROVIDER);
    assert.equal(url.protocol, "dubbo");
    assert.equal(url.host, "192.168.0.102");
    assert.equal(url.port, 20881);
    assert.equal(url.path, "com.foo.DemoService");
    assert.equal(url.address, "192.168.0.102:20881");
    assert.equal(url.get("methods"), "sayHello,sayHelloAsync");
    assert.deepEqual(url.list("methods"), ["sayHello", "sayHelloAsync"]);
    assert.equal(url.number("timestamp", 0), 1564826098503);
    assert.equal(url.boolean("anyhost", false), true);
    assert.equal(url.serviceKey, "com.foo.DemoService:1.0.0");
  });

  it("toString - round-trips Java's string exactly", () => {
    assert.equal(Url.parse(JAVA_PROVIDER).toString(), JAVA_PROVIDER);
  });

  it("toString - sorts parameters by key as Java's TreeMap does", () => {
    const url = Url.parse("dubbo://1.2.3.4:20880/a.B?version=1&application=x&Zeta=1&dubbo=2.0.2");
    assert.equal(url.toString(), "dubbo://1.2.3.4:20880/a.B?Zeta=1&application=x&dubbo=2.0.2&version=1");
  });

  it("encode - equals the node name Java's URLEncoder writes", () => {
    assert.equal(Url.parse(JAVA_PROVIDER).encode(), JAVA_PROVIDER_NODE);
  });

  it("decode - parses the Java-written node name back", () => {
    assert.equal(Url.decode(JAVA_PROVIDER_NODE).toString(), JAVA_PROVIDER);
  });

  it("decode - reads '+' as space, %24 as '$' and mirrors default. keys", () => {
    const node =
      "dubbo%3A%2F%2F10.0.0.1%3A20880%2Fcom.foo.Outer%24Inner%3Fdefault.timeout%3D3000%26interface%3Dcom.foo.Outer%24Inner%26module%3Ddubbogo+certify+server%26default.version%3D2.0";
    const url = Url.decode(node);
    assert.equal(url.path, "com.foo.Outer$Inner");
    assert.equal(url.get("module"), "dubbogo certify server");
    assert.equal(url.get("timeout"), "3000");
    assert.equal(url.get("version"), "2.0");
    assert.equal(url.serviceKey, "com.foo.Outer$Inner:2.0");
  });

  it("decode - lower-case escapes of the separators split as upper-case ones do", () => {
    const url = Url.decode("dubbo%3a%2f%2fh%3a1%2fS%3fa%3d1%26b%3d2");
    assert.equal(url.toString(), "dubbo://h:1/S?a=1&b=2");
  });

  it("decode - keeps an encoded '&' inside a value, as Java's parseEncodedStr does", () => {
    const node =
      "route%3A%2F%2F0.0.0.0%2Fcom.foo.S%3Fcategory%3Drouters%26rule%3Dhost%253D1%2526method%253Dx";
    const url = Url.decode(node);
    assert.equal(url.get("rule"), "host%3D1%26method%3Dx");
    assert.equal(javaUrlDecode(url.get("rule") ?? ""), "host=1&method=x");
  });

  it("decode - URLs read one after another each keep their own values, as alike or as different as they are", () => {
    const node = (i: number, extra: string): string =>
      Url.parse(
        `dubbo://10.0.${i >> 8}.${i & 255}:20880/S?application=a b&${extra}pid=${i}&side=provider`,
      ).encode();
    // More distinct values than a name shares, and a parameter that shifts the others' positions.
    for (let i = 0; i < 600; i++) {
      const url = Url.decode(node(i, i % 7 === 0 ? "anyhost=true&" : ""));
      assert.equal(url.host, `10.0.${i >> 8}.${i & 255}`);
      assert.equal(url.get("pid"), String(i));
      assert.equal(url.get("application"), "a b");
      assert.equal(url.get("anyhost"), i % 7 === 0 ? "true" : undefined);
      assert.equal(url.get("side"), "provider");
    }
  });

  it("decode - URLs of one shape read as a Map of the same entries, in the same order", () => {
    const text = "dubbo://10.0.0.1:20880/S?anyhost=true&application=a&pid=1&side=provider&weight=100";
    for (const host of ["10.0.0.1", "10.0.0.2"]) {
      const url = Url.decode(Url.parse(text.replace("10.0.0.1", host)).encode());
      const expected = Url.parse(text).params;
      assert.deepEqual([...url.params], [...expected]);
      assert.deepEqual([...url.params.keys()], [...expected.keys()]);
      assert.deepEqual([...url.params.values()], [...expected.values()]);
      assert.equal(url.params.size, expected.size);
      assert.equal(url.has("weight"), true);
      assert.equal(url.has("warmup"), false);
      const seen: string[] = [];
      url.params.forEach((value, key) => {
        seen.push(`${key}=${value}`);
      });
      assert.deepEqual(
        seen,
        [...expected].map(([k, v]) => `${k}=${v}`),
      );
      assert.equal(url.toString(), text.replace("10.0.0.1", host));
    }
  });

  it("decode - a head after one of the same protocol and path reads as the full parse reads it", () => {
    // Each name follows a plain one of the same protocol and path, which the head reader learns
    // from: what it takes without decoding must be what decoding and parsing give.
    const heads = [
      "dubbo://10.0.0.2:20880/com.foo.S",
      "dubbo://provider-with-a-long-name_1.example.com:1/com.foo.S",
      "dubbo://h:65535/com.foo.S",
      "dubbo://h:065/com.foo.S",
      "dubbo://[::1]:20880/com.foo.S",
      "dubbo://user:pw@h:1/com.foo.S",
      "dubbo://a%20b:1/com.foo.S",
      "dubbo://a b:1/com.foo.S",
      "dubbo://h/com.foo.S",
      "dubbo://h:1/com.foo.S/more",
      "dubbo://h:1/com.foo.Sx",
      "tri://h:1/com.foo.S",
    ];
    for (const head of heads) {
      for (const query of ["?a=1", ""]) {
        Url.decode(Url.parse(`dubbo://10.0.0.1:20880/com.foo.S${query}`).encode());
        const node = javaUrlEncode(`${head}${query}`);
        const url = Url.decode(node);
        const parsed = Url.parse(javaUrlDecode(node));
        assert.deepEqual(
          [url.protocol, url.username, url.password, url.host, url.port, url.path, url.toFullString()],
          [
            parsed.protocol,
            parsed.username,
            parsed.password,
            parsed.host,
            parsed.port,
            parsed.path,
            parsed.toFullString(),
          ],
          node,
        );
      }
    }
    Url.decode(Url.parse("dubbo://10.0.0.1:20880/com.foo.S").encode());
    assert.throws(() => Url.decode(javaUrlEncode("dubbo://h:65536/com.foo.S")), /port 65536, above 65535/);
    assert.throws(() => Url.decode(javaUrlEncode("dubbo://h:/com.foo.S")), /invalid port ""/);
  });

  it("decode - a repeated name keeps its last value and default. names still mirror after a shaped URL", () => {
    Url.decode(Url.parse("dubbo://h:1/S?a=1&b=2").encode());
    const repeated = Url.decode("dubbo%3A%2F%2Fh%3A1%2FS%3Fa%3D1%26a%3D3");
    assert.deepEqual([...repeated.params], [["a", "3"]]);
    const mirrored = Url.decode(Url.parse("dubbo://h:1/S?a=1&default.b=2").encode());
    assert.equal(mirrored.get("b"), "2");
  });

  it("decode - a decoded URL does not keep its node name alive", () => {
    // A value cut out of the name without decoding is a view into the whole name (V8's sliced
    // strings): a 13-digit timestamp per provider kept each provider's node name in the heap.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const shared = "x".repeat(4_000); // the same for every URL, so stored once
    const count = 1_000;
    const names = Array.from({ length: count }, (_, i) =>
      new Url({
        protocol: "dubbo",
        host: `10.0.${i >> 8}.${i & 255}`,
        port: 20880,
        path: "com.foo.S",
        params: { methods: shared, timestamp: String(1_700_000_000_000 + i), token: `t-${i}-abcdefghijklmn` },
      }).encode(),
    );
    gc();
    const before = process.memoryUsage().heapUsed;
    const urls = names.splice(0).map((name) => Url.decode(`${name} `.slice(0, -1)));
    gc();
    const perUrl = (process.memoryUsage().heapUsed - before) / count;
    assert.equal(urls[7]?.get("timestamp"), "1700000000007");
    assert.ok(
      perUrl < 2_000,
      `each decoded URL holds ${perUrl.toFixed(0)} bytes (its node name is over 4 000)`,
    );
  });

  it("javaUrlEncode - escapes !'()~ and writes space as '+', keeps .-*_", () => {
    assert.equal(javaUrlEncode("a b!c'd(e)f~g.h-i*j_k"), "a+b%21c%27d%28e%29f%7Eg.h-i*j_k");
    assert.equal(javaUrlEncode("中"), "%E4%B8%AD");
    assert.equal(javaUrlDecode(javaUrlEncode("a b!'()~中")), "a b!'()~中");
  });

  it("parse - reads credentials, IPv6 hosts, no port and no path", () => {
    const zk = Url.parse("zookeeper://admin:secret@127.0.0.1:2181?backup=127.0.0.1:2182,127.0.0.1:2183");
    assert.equal(zk.username, "admin");
    assert.equal(zk.password, "secret");
    assert.equal(zk.path, "");
    assert.deepEqual(zk.list("backup"), ["127.0.0.1:2182", "127.0.0.1:2183"]);
    assert.equal(zk.toString(), "zookeeper://127.0.0.1:2181?backup=127.0.0.1:2182,127.0.0.1:2183");
    assert.equal(
      zk.toFullString(),
      "zookeeper://admin:secret@127.0.0.1:2181?backup=127.0.0.1:2182,127.0.0.1:2183",
    );

    const v6 = Url.parse("dubbo://[::1]:20880/com.foo.S");
    assert.equal(v6.host, "::1");
    assert.equal(v6.port, 20880);
    assert.equal(v6.address, "[::1]:20880");
    assert.equal(v6.toString(), "dubbo://[::1]:20880/com.foo.S");

    const consumer = Url.parse("consumer://10.0.0.7/com.foo.S?category=consumers");
    assert.equal(consumer.port, 0);
    assert.equal(consumer.toString(), "consumer://10.0.0.7/com.foo.S?category=consumers");
  });

  it("parse - a key without '=' is its own value, as in Java", () => {
    assert.equal(Url.parse("dubbo://h:1/p?flag&x=1").get("flag"), "flag");
  });

  it("parse - rejects malformed input with a message naming the problem", () => {
    assert.throws(() => Url.parse(""), /a URL is required/);
    assert.throws(() => Url.parse("dubbo://host:notaport/x"), /invalid port "notaport"/);
    assert.throws(() => Url.parse("dubbo://host:99999/x"), /port 99999, above 65535/);
    assert.throws(() => Url.parse("dubbo://[::1/x"), /unterminated IPv6/);
    assert.throws(() => Url.parse("1bad://h:1/x"), /invalid protocol "1bad"/);
    assert.throws(() => Url.decode("dubbo%3A%2F%2Fh%3A1%2Fx%3Fa%3D%ZZ"), /not validly URL-encoded/);
  });

  it("methodGet - prefers sayHello.timeout, then methods.sayHello.timeout, then timeout", () => {
    const url = Url.parse("dubbo://h:1/S?timeout=1000&sayHello.timeout=500&methods.bye.timeout=700");
    assert.equal(url.methodNumber("sayHello", "timeout", 1), 500);
    assert.equal(url.methodNumber("bye", "timeout", 1), 700);
    assert.equal(url.methodNumber("other", "timeout", 1), 1000);
    assert.equal(url.methodNumber("other", "retries", 2), 2);
  });

  it("typed getters - fall back on absent, empty or malformed values", () => {
    const url = Url.parse("dubbo://h:1/S?timeout=&retries=abc&sticky=true&check=false");
    assert.equal(url.number("timeout", 1000), 1000);
    assert.equal(url.number("retries", 2), 2);
    assert.equal(url.boolean("sticky", false), true);
    assert.equal(url.boolean("check", true), false);
    assert.equal(url.string("loadbalance", "random"), "random");
  });

  it("with… - derives new URLs and never mutates the original", () => {
    const url = Url.parse("dubbo://h:1/com.foo.S?group=g&version=1.0");
    const derived = url.withParams({ timeout: 300, group: undefined }).with({ host: "10.0.0.1", port: 2 });
    assert.equal(url.toString(), "dubbo://h:1/com.foo.S?group=g&version=1.0");
    assert.equal(derived.toString(), "dubbo://10.0.0.1:2/com.foo.S?timeout=300&version=1.0");
    assert.equal(url.serviceKey, "g/com.foo.S:1.0");
    assert.equal(derived.serviceKey, "com.foo.S:1.0");
    assert.equal(
      url.withDefaults({ group: "other", weight: 100 }).toString(),
      "dubbo://h:1/com.foo.S?group=g&version=1.0&weight=100",
    );
    assert.equal(url.withoutParams("group", "version").serviceKey, "com.foo.S");
    assert.ok(Object.isFrozen(url));
  });
});
