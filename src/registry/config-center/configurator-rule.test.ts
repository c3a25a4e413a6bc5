import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Url } from "../../core/index.js";
import { applyConfigurators, MATCH_CONDITION_KEY, toConfigurators } from "../directory/configurator.js";
import { parseConfiguratorRule } from "./configurator-rule.js";

describe("config-center configurator rules (dubbo-admin's YAML, Java's ConfigParser)", () => {
  it("service scope: one override URL per address, group/version from the key, the rule's enabled", () => {
    const urls = parseConfiguratorRule(
      [
        "configVersion: v2.7",
        "scope: service",
        "key: g1/org.demo.Greeter:1.0",
        "enabled: false",
        "configs:",
        "  - addresses: [10.0.0.1, 10.0.0.2]",
        "    side: consumer",
        "    applications: [app-a]",
        "    parameters: { timeout: 6000 }",
      ].join("\n"),
      "test",
    ).map(String);
    assert.deepEqual(urls, [
      "override://10.0.0.1/org.demo.Greeter?application=app-a&category=configurators&configVersion=v2.7&enabled=false&group=g1&side=consumer&timeout=6000&version=1.0",
      "override://10.0.0.2/org.demo.Greeter?application=app-a&category=configurators&configVersion=v2.7&enabled=false&group=g1&side=consumer&timeout=6000&version=1.0",
    ]);
  });

  it("application scope: every service (*) of the application named by the key; provider side names its addresses", () => {
    const [url] = parseConfiguratorRule(
      [
        "configVersion: v2.7",
        "scope: application",
        "key: demo-provider",
        "configs:",
        "  - addresses: ['10.0.0.5:20880']",
        "    side: provider",
        "    parameters: { weight: 50 }",
      ].join("\n"),
      "test",
    );
    assert.equal(
      url?.toString(),
      "override://10.0.0.5:20880/*?application=demo-provider&category=configurators&configVersion=v2.7&enabled=true&providerAddresses=10.0.0.5:20880&side=provider&weight=50",
    );
  });

  it("a JSON array of override URLs is read as it is; an empty change, an unknown field and a v2.7 match are refused by name", () => {
    assert.equal(parseConfiguratorRule('["override://0.0.0.0/a.B?timeout=1"]', "t")[0]?.get("timeout"), "1");
    const match =
      "key: a.B\nconfigs:\n  - match: { app: { oneof: [{ exact: x }] } }\n    parameters: { timeout: 1 }";
    assert.throws(
      () => parseConfiguratorRule(match, "rule a.B"),
      /rule a.B: configs\[0\]: has a match, which Java reads only with configVersion: v3.0/,
    );
    assert.throws(
      () => parseConfiguratorRule("key: a.B\nconfigs:\n  - side: consumer", "r"),
      /changes no parameter/,
    );
    assert.throws(
      () =>
        parseConfiguratorRule("key: a.B\nconfigs:\n  - side: consumer\n    parameter: { timeout: 1 }", "/n"),
      /\/n: configs\[0\]: unknown field "parameter"/,
    );
    assert.throws(
      () => parseConfiguratorRule(`configVersion: v3.0\n${match.replace("exact", "exakt")}`, "/n"),
      /configs\[0\]\.match\.app\.oneof\[0\]: unknown field "exakt"/,
    );
  });

  it("v3.0 match (dubbo-admin's form): applied only where every part matches", () => {
    const rules = parseConfiguratorRule(
      [
        "configVersion: v3.0",
        "scope: application",
        "key: shop-detail",
        "enabled: true",
        "configs:",
        "  - side: provider",
        "    match:",
        "      param:",
        "        - key: env",
        "          value:",
        "            exact: gray",
        "      service:",
        "        oneof:",
        "          - prefix: org.demo.",
        "      providerAddress:",
        "        cird: 10.0.0.0/24",
        "    parameters:",
        "      weight: 10",
      ].join("\n"),
      "test",
    );
    const configurators = toConfigurators(rules);
    const provider = (host: string, env: string) =>
      Url.parse(`dubbo://${host}:20880/org.demo.Greeter?application=shop-detail&side=provider&env=${env}`);
    const weight = (url: Url) => applyConfigurators(url, configurators, url.host).get("weight");
    assert.equal(weight(provider("10.0.0.5", "gray")), "10");
    assert.equal(weight(provider("10.0.0.5", "prod")), undefined, "param does not match");
    assert.equal(weight(provider("10.0.1.5", "gray")), undefined, "providerAddress does not match");
    assert.equal(rules[0]?.get(MATCH_CONDITION_KEY)?.startsWith("{"), true);
    assert.equal(
      applyConfigurators(provider("10.0.0.5", "gray"), configurators, "10.0.0.5").has(MATCH_CONDITION_KEY),
      false,
    );
  });

  it("v3.0 consumer side: address matches the consumer's own host", () => {
    const rules = parseConfiguratorRule(
      [
        "configVersion: v3.0",
        "scope: service",
        "key: org.demo.Greeter",
        "configs:",
        "  - side: consumer",
        "    match:",
        "      address:",
        "        wildcard: '10.1.*'",
        "    parameters:",
        "      timeout: 6000",
      ].join("\n"),
      "test",
    );
    const consumer = Url.parse("consumer://10.1.0.7/org.demo.Greeter?side=consumer");
    assert.equal(applyConfigurators(consumer, toConfigurators(rules), "10.1.0.7").get("timeout"), "6000");
    assert.equal(applyConfigurators(consumer, toConfigurators(rules), "10.2.0.7").get("timeout"), undefined);
  });

  it("providerAddresses: Java 3 compares each entry (v3.0 rules), Java 2.7 searches the text (v2.7 rules)", () => {
    const rule = (version: string) =>
      toConfigurators(
        parseConfiguratorRule(
          `configVersion: ${version}\nkey: org.demo.Greeter\nconfigs:\n  - side: consumer\n    providerAddresses: ["110.0.0.1:20880"]\n    parameters: { weight: 5 }`,
          "test",
        ),
      );
    const merged = Url.parse("dubbo://10.0.0.1:20880/org.demo.Greeter?side=consumer");
    assert.equal(applyConfigurators(merged, rule("v3.0"), "10.0.0.9").get("weight"), undefined);
    assert.equal(applyConfigurators(merged, rule("v2.7"), "10.0.0.9").get("weight"), "5");
  });
});
