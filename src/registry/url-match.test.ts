import assert from "node:assert/strict";
import { test } from "node:test";
import { Url } from "../core/index.js";
import { categoryOf, emptyUrl, isMatch, isMatchCategory } from "./url-match.js";

const IFACE = "org.apache.dubbo.demo.DemoService";
const consumer = (params: Record<string, string> = {}) =>
  Url.parse(`consumer://10.0.0.1/${IFACE}`).withParams({ interface: IFACE, ...params });
const provider = (params: Record<string, string> = {}) =>
  Url.parse(`dubbo://10.0.0.5:20880/${IFACE}`).withParams({ interface: IFACE, ...params });

test("url-match - no version matches no version; no version does not match 0.0.0", () => {
  assert.equal(isMatch(consumer(), provider()), true);
  assert.equal(isMatch(consumer(), provider({ version: "0.0.0" })), false);
  assert.equal(isMatch(consumer({ version: "1.0.0" }), provider({ version: "1.0.0" })), true);
  assert.equal(isMatch(consumer({ version: "1.0.0" }), provider({ version: "1.0.1" })), false);
  assert.equal(isMatch(consumer({ version: "*" }), provider({ version: "9" })), true);
});

test("url-match - groups: equal, *, or one of a comma list", () => {
  assert.equal(isMatch(consumer({ group: "a" }), provider({ group: "a" })), true);
  assert.equal(isMatch(consumer({ group: "a" }), provider({ group: "b" })), false);
  assert.equal(isMatch(consumer({ group: "a" }), provider()), false);
  assert.equal(isMatch(consumer(), provider({ group: "a" })), false);
  assert.equal(isMatch(consumer({ group: "*" }), provider({ group: "x" })), true);
  assert.equal(isMatch(consumer({ group: "a,b" }), provider({ group: "b" })), true);
  assert.equal(isMatch(consumer({ group: "a,b" }), provider({ group: "c" })), false);
});

test("url-match - interface must be equal unless either side is *", () => {
  const other = Url.parse("dubbo://10.0.0.5:20880/com.foo.Other?interface=com.foo.Other");
  assert.equal(isMatch(consumer(), other), false);
  assert.equal(isMatch(Url.parse("admin://1.1.1.1/*?interface=*"), other), true);
  // Without an interface parameter the path is the interface.
  assert.equal(isMatch(consumer(), Url.parse(`dubbo://10.0.0.5:20880/${IFACE}`)), true);
});

test("url-match - categories: default providers, lists, * and -exclusions", () => {
  assert.equal(isMatch(consumer(), provider({ category: "routers" })), false);
  assert.equal(isMatch(consumer({ category: "providers,routers" }), provider({ category: "routers" })), true);
  assert.equal(isMatchCategory("providers", undefined), true);
  assert.equal(isMatchCategory("routers", undefined), false);
  assert.equal(isMatchCategory("routers", "*"), true);
  assert.equal(isMatchCategory("routers", "-routers"), false);
  assert.equal(isMatchCategory("providers", "-routers"), true);
});

test("url-match - enabled=false matches only enabled=*; classifier must agree unless *", () => {
  assert.equal(isMatch(consumer(), provider({ enabled: "false" })), false);
  assert.equal(isMatch(consumer({ enabled: "*" }), provider({ enabled: "false" })), true);
  assert.equal(isMatch(consumer({ classifier: "x" }), provider({ classifier: "x" })), true);
  assert.equal(isMatch(consumer({ classifier: "x" }), provider({ classifier: "y" })), false);
  assert.equal(isMatch(consumer(), provider({ classifier: "y" })), true);
});

test("url-match - categoryOf and the empty:// placeholder", () => {
  assert.equal(categoryOf(provider()), "providers");
  assert.equal(categoryOf(Url.parse("override://0.0.0.0/x?timeout=5")), "configurators");
  assert.equal(categoryOf(Url.parse("condition://0.0.0.0/x")), "routers");
  assert.equal(categoryOf(provider({ category: "consumers" })), "consumers");
  const empty = emptyUrl(consumer({ category: "providers,routers" }), "routers");
  assert.equal(empty.protocol, "empty");
  assert.equal(empty.get("category"), "routers");
  assert.equal(isMatch(consumer({ category: "providers,routers" }), empty), true);
});
