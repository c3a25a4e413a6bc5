import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Url } from "../../core/index.js";
import { migrationOf, preferApplicationLevel, ruleFor } from "./migration.js";

const consumer = Url.parse("consumer://10.0.0.1/org.demo.Greeter?interface=org.demo.Greeter&version=1.0");

describe("Dubbo 3 migration (Java's MigrationRule and DefaultMigrationAddressComparator)", () => {
  it("defaults: APPLICATION_FIRST, threshold 0; the consumer URL's keys override them", () => {
    assert.deepEqual(migrationOf(consumer), { step: "APPLICATION_FIRST", threshold: 0 });
    const keyed = consumer.withParams({
      "migration.step": "FORCE_APPLICATION",
      "migration.threshold": "0.5",
    });
    assert.deepEqual(migrationOf(keyed), { step: "FORCE_APPLICATION", threshold: 0.5 });
    assert.deepEqual(migrationOf(consumer.withParams({ "migration.threshold": "-1" })).threshold, 0);
  });

  it("a rule's interface entry (interface:version) wins, then its provider applications' entries, then its own", () => {
    const rule = [
      "key: demo-consumer",
      "step: FORCE_INTERFACE",
      "threshold: 0.9",
      "applications:",
      "  - serviceKey: greeter-app",
      "    step: APPLICATION_FIRST",
      "    threshold: 0.3",
      "interfaces:",
      "  - serviceKey: org.demo.Greeter:1.0",
      "    step: FORCE_APPLICATION",
    ].join("\n");
    assert.deepEqual(migrationOf(consumer, ruleFor(rule, consumer, ["greeter-app"])), {
      step: "FORCE_APPLICATION",
      threshold: 0.3,
    });
    assert.deepEqual(migrationOf(consumer, ruleFor(rule, consumer, [])), {
      step: "FORCE_APPLICATION",
      threshold: 0.9,
    });
  });

  it("a bad step names itself and the accepted ones", () => {
    assert.throws(
      () => ruleFor("step: SOMETIMES", consumer, []),
      /step "SOMETIMES" is not one of FORCE_INTERFACE, APPLICATION_FIRST, FORCE_APPLICATION/,
    );
  });

  it("the application-level list wins when non-empty and its ratio reaches the threshold", () => {
    assert.equal(preferApplicationLevel(0, 3, 0), false);
    assert.equal(preferApplicationLevel(1, 0, 5), true);
    assert.equal(preferApplicationLevel(1, 3, 0), true);
    assert.equal(preferApplicationLevel(1, 3, 0.5), false);
    assert.equal(preferApplicationLevel(2, 3, 0.5), true);
  });
});
