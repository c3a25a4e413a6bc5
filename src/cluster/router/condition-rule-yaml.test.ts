import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createInvocation, javaUrlEncode, Url } from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import { parseConditionRouterRule } from "./condition-rule-yaml.js";
import { createConfigConditionRouter } from "./config-condition-router.js";
import { createMultiDestinationRoute } from "./multi-destination-router.js";

const SERVICE = "org.apache.dubbo.samples.CommentService";
const CONSUMER = Url.parse(
  `consumer://10.0.0.9/${SERVICE}?interface=${SERVICE}&region=Hangzhou&application=shop`,
);
const hangzhou = new FakeInvoker({
  address: "10.0.0.1:20880",
  service: SERVICE,
  params: { region: "Hangzhou" },
});
const beijing = new FakeInvoker({
  address: "10.0.0.2:20880",
  service: SERVICE,
  params: { region: "Beijing" },
});
const PROVIDERS = [hangzhou, beijing];
const call = (method = "getComment") => createInvocation({ service: SERVICE, method });

/** dubbo-admin's v3.1 condition rule, as its console writes it. */
const V31 = `configVersion: v3.1
scope: service
force: false
runtime: true
enabled: true
key: ${SERVICE}
conditions:
  - from:
      match: region=Hangzhou
    to:
      - match: region=Hangzhou
        weight: 100
      - match: region=Beijing
        weight: 900
    trafficDisable: false
    ratio: 20
    priority: 20
    force: false
`;

/** dubbo-admin's v2.7-style condition rule (its console writes v3.0 for these; Java reads both alike). */
const V27 = `configVersion: v3.0
scope: service
force: true
runtime: true
enabled: true
key: ${SERVICE}
conditions:
  - method=getComment => region=Beijing
`;

function router(yaml: string) {
  return createConfigConditionRouter(
    Url.parse(`condition-router://0.0.0.0/${SERVICE}?category=routers&priority=140`).withParams({
      rule: javaUrlEncode(yaml),
      ruleKey: "/dubbo/config/dubbo/test.condition-router",
    }),
  );
}

describe("condition rules from the config center (Java's ConditionRuleParser)", () => {
  it("v3.1: from/to with weights parse; ratio, trafficDisable, priority and force per condition are noted as ignored", () => {
    const rule = parseConditionRouterRule(V31, "r");
    assert.equal(rule.version, "v3.1");
    assert.deepEqual(rule.conditions, [
      {
        from: "region=Hangzhou",
        to: [
          { match: "region=Hangzhou", weight: 100 },
          { match: "region=Beijing", weight: 900 },
        ],
      },
    ]);
    assert.deepEqual([...rule.ignored].sort(), ["force", "priority", "ratio", "trafficDisable"]);
  });

  it("v3.1: a matching call goes to one destination, chosen by weight (Java's draw in [0, sum))", () => {
    const rule = parseConditionRouterRule(V31, "r");
    if (rule.version !== "v3.1") throw new Error("expected v3.1");
    const [condition] = rule.conditions;
    if (condition === undefined) throw new Error("no condition");
    const low = createMultiDestinationRoute(condition, false, undefined, () => 0.05); // draw 50 of 1000
    const high = createMultiDestinationRoute(condition, false, undefined, () => 0.5); // draw 500
    assert.deepEqual(low(PROVIDERS, CONSUMER, call()), [hangzhou]);
    assert.deepEqual(high(PROVIDERS, CONSUMER, call()), [beijing]);
    const elsewhere = CONSUMER.withParams({ region: "Shanghai" });
    assert.equal(
      low(PROVIDERS, elsewhere, call()),
      PROVIDERS,
      "a consumer not matching from keeps every provider",
    );
  });

  it("v3.1: no destination with providers keeps the list, unless force; an empty to list blocks", () => {
    const nowhere = { from: "region=Hangzhou", to: [{ match: "region=Mars", weight: 100 }] };
    assert.equal(createMultiDestinationRoute(nowhere, false)(PROVIDERS, CONSUMER, call()), PROVIDERS);
    assert.deepEqual(createMultiDestinationRoute(nowhere, true)(PROVIDERS, CONSUMER, call()), []);
    assert.deepEqual(
      createMultiDestinationRoute({ from: "", to: [] }, false)(PROVIDERS, CONSUMER, call()),
      [],
    );
  });

  it("v2.7 strings: each condition is a Dubbo condition router with the rule's force", () => {
    const r = router(V27);
    assert.equal(r.priority, 140);
    assert.deepEqual(r.route(PROVIDERS, CONSUMER, call("getComment")), [beijing]);
    assert.equal(r.route(PROVIDERS, CONSUMER, call("other")), PROVIDERS);
    const none = router(V27.replace("region=Beijing", "region=Mars"));
    assert.deepEqual(none.route(PROVIDERS, CONSUMER, call("getComment")), [], "force: true");
  });

  it("a disabled rule routes nothing", () => {
    assert.equal(
      router(V31.replace("enabled: true", "enabled: false")).route(PROVIDERS, CONSUMER, call()),
      PROVIDERS,
    );
  });

  it("bad rules are refused by name: YAML, unknown field, missing to, no conditions, a later version", () => {
    const where = "/dubbo/config/dubbo/x.condition-router";
    assert.throws(
      () => parseConditionRouterRule("conditions: [a\n", where),
      /x\.condition-router: the rule is not valid YAML/,
    );
    assert.throws(() => parseConditionRouterRule(`${V27}froce: true\n`, where), /unknown field "froce"/);
    assert.throws(
      () => parseConditionRouterRule("configVersion: v3.1\nconditions:\n  - from: { match: a=b }\n", where),
      /conditions\[0\]: has no "to"/,
    );
    assert.throws(
      () => parseConditionRouterRule("configVersion: v3.1\nkey: a\n", where),
      /has no conditions/,
    );
    assert.throws(
      () => parseConditionRouterRule(V31.replace("v3.1", "v3.2"), where),
      /v3.2 is not supported/,
    );
    assert.throws(
      () => parseConditionRouterRule(V31.replace("weight: 900", "weight: heavy"), where),
      /to\[1\]\.weight: expected an integer, got "heavy"/,
    );
  });
});
