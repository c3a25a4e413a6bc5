import assert from "node:assert/strict";
import { describe, it } from "node:test";
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

  it("a JSON array of override URLs is read as it is; a v3.0 match and an empty change are refused by name", () => {
    assert.equal(parseConfiguratorRule('["override://0.0.0.0/a.B?timeout=1"]', "t")[0]?.get("timeout"), "1");
    const match = "key: a.B\nconfigs:\n  - match: { app: { exact: x } }\n    parameters: { timeout: 1 }";
    assert.throws(() => parseConfiguratorRule(match, "rule a.B"), /rule a.B: configs\[0\] has a v3.0 match/);
    assert.throws(
      () => parseConfiguratorRule("key: a.B\nconfigs:\n  - side: consumer", "r"),
      /changes no parameter/,
    );
  });
});
