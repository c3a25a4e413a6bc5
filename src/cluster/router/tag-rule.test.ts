import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createInvocation, javaUrlEncode, Url } from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import { matchIpExpression } from "./ip-expression.js";
import { parseScriptRouterRule } from "./script-rule.js";
import { matchString, parseStringMatch } from "./string-match.js";
import { createTagRouter } from "./tag-router.js";
import { parseTagRouterRule } from "./tag-rule.js";

const SERVICE = "org.apache.dubbo.samples.DetailService";
const CONSUMER = Url.parse(`consumer://10.0.0.9/${SERVICE}?interface=${SERVICE}`);
const a = new FakeInvoker({ address: "30.5.120.37:20881", service: SERVICE, params: { env: "prod" } });
const b = new FakeInvoker({ address: "30.5.120.38:20881", service: SERVICE, params: { env: "gray" } });
const c = new FakeInvoker({ address: "30.5.120.39:20881", service: SERVICE, params: { env: "gray" } });
const PROVIDERS = [a, b, c];
const call = (tag?: string) =>
  createInvocation({
    service: SERVICE,
    method: "m",
    attachments: tag === undefined ? {} : { "dubbo.tag": tag },
  });

/** dubbo-admin's static tag rule. */
const STATIC = `force: false
runtime: true
enabled: true
priority: 1
key: shop-detail
tags:
  - name: tag1
    addresses: ["30.5.120.37:20881"]
  - name: tag2
    addresses: ["30.5.120.38:20881"]
`;

/** dubbo-admin's v3.0 tag rule with a parameter match (dynamic tags). */
const DYNAMIC = `configVersion: v3.0
force: true
enabled: true
key: shop-detail
tags:
  - name: gray
    match:
      - key: env
        value:
          exact: gray
`;

function tagRouter(yaml: string) {
  const router = createTagRouter(
    Url.parse(`tag://0.0.0.0/${SERVICE}?category=routers`).withParams({
      rule: javaUrlEncode(yaml),
      ruleKey: "k",
    }),
  );
  router.notify?.(PROVIDERS);
  return router;
}

describe("tag rules from the config center (Java's TagRuleParser, TagStateRouter)", () => {
  it("static addresses: a tag's providers for its requests, the untagged rest for untagged requests", () => {
    const router = tagRouter(STATIC);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("tag1")), [a]);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("tag2")), [b]);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call()), [c]);
    assert.deepEqual(
      router.route(PROVIDERS, CONSUMER, call("nope")),
      [c],
      "an unknown tag falls back to the rest",
    );
  });

  it("v3.0 match: the tag names the providers whose parameters match; force keeps an empty result", () => {
    const router = tagRouter(DYNAMIC);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("gray")), [b, c]);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call()), [a]);
    assert.deepEqual(router.route([a], CONSUMER, call("gray")), [], "force: true, the gray ones are gone");
  });

  it("a|b tags fall back level by level when not forced", () => {
    const router = tagRouter(STATIC);
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call("tag1|x")), [a]);
  });

  it("bad rules are refused by name", () => {
    assert.throws(
      () => parseTagRouterRule(STATIC.replace("addresses", "adresses"), "p"),
      /tags\[0\]: unknown field "adresses"/,
    );
    assert.throws(
      () => parseTagRouterRule(DYNAMIC.replace("configVersion: v3.0\n", ""), "p"),
      /match, which Java reads only with configVersion: v3.0/,
    );
    assert.throws(
      () => parseTagRouterRule(DYNAMIC.replace("exact: gray", "exactly: gray"), "p"),
      /value: unknown field "exactly"/,
    );
    assert.throws(() => parseTagRouterRule("key: x\n", "p"), /has no tags/);
  });
});

describe("string and address matchers (Java's StringMatch, NetUtils.matchIpExpression)", () => {
  it("exact, prefix, regex (whole value), wildcard, empty, noempty", () => {
    const m = (spec: string, input: string | undefined) =>
      matchString(parseStringMatch(JSON.parse(spec), "t"), input);
    assert.equal(m('{"exact":"gray"}', "gray"), true);
    assert.equal(m('{"exact":"gray"}', "grey"), false);
    assert.equal(m('{"prefix":"gr"}', "gray"), true);
    assert.equal(m('{"regex":"g.a"}', "gray"), false, "the whole value must match");
    assert.equal(m('{"regex":"g.a.*"}', "gray"), true);
    assert.equal(m('{"wildcard":"*"}', "x"), true);
    assert.equal(m('{"wildcard":"x"}', "y"), false);
    assert.equal(m('{"empty":"true"}', undefined), true);
    assert.equal(m('{"empty":"true"}', "x"), false);
    assert.equal(m('{"noempty":"true"}', "x"), true);
    assert.equal(m('{"noempty":"true"}', ""), false);
    assert.throws(
      () => parseStringMatch({ regex: "(" }, "here"),
      /here\.regex: "\(" is not a regular expression/,
    );
    assert.throws(() => parseStringMatch({}, "here"), /sets no matcher/);
  });

  it("IP expressions: CIDR, wildcards, ranges, ports", () => {
    assert.equal(matchIpExpression("10.0.0.0/8", "10.2.3.4", 1), true);
    assert.equal(matchIpExpression("10.0.0.0/8", "11.2.3.4", 1), false);
    assert.equal(matchIpExpression("192.168.1.*", "192.168.1.77", 1), true);
    assert.equal(matchIpExpression("192.168.1.1-9:20880", "192.168.1.5", 20880), true);
    assert.equal(matchIpExpression("192.168.1.1-9:20880", "192.168.1.5", 20881), false);
    assert.equal(matchIpExpression("30.5.120.37:20881", "30.5.120.37", 20881), true);
  });
});

describe("script rules from the config center (Java's ScriptRule)", () => {
  it("dubbo-admin's YAML: type, script and the common fields; no script is refused", () => {
    const rule = parseScriptRouterRule(
      `key: shop-detail
type: javascript
enabled: true
force: false
script: |
  (function route(invokers, invocation, context) { return invokers; }(invokers, invocation, context));
`,
      "p",
    );
    assert.equal(rule.type, "javascript");
    assert.match(rule.script, /function route/);
    assert.throws(
      () => parseScriptRouterRule("key: a\ntype: javascript\n", "p"),
      /p: the rule has no script/,
    );
  });
});
