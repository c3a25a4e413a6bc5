import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Url } from "../../core/index.js";
import { migrationOf, ruleFor, shouldMigrate } from "./migration.js";

const consumer = Url.parse("consumer://10.0.0.1/org.demo.Greeter?interface=org.demo.Greeter&version=1.0");

describe("Dubbo 3 migration (Java's MigrationRule and DefaultMigrationAddressComparator)", () => {
  it("defaults: APPLICATION_FIRST, threshold 0; the consumer URL's keys override them", () => {
    assert.deepEqual(migrationOf(consumer), { step: "APPLICATION_FIRST", threshold: 0, force: false });
    const keyed = consumer.withParams({
      "migration.step": "FORCE_APPLICATION",
      "migration.threshold": "0.5",
    });
    assert.deepEqual(migrationOf(keyed), { step: "FORCE_APPLICATION", threshold: 0.5, force: false });
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
      force: false,
    });
    assert.deepEqual(migrationOf(consumer, ruleFor(rule, consumer, [])), {
      step: "FORCE_APPLICATION",
      threshold: 0.9,
      force: false,
    });
  });

  it("force: the rule's entries, then the rule, then migration.force on the consumer URL; default false", () => {
    const rule =
      "step: FORCE_APPLICATION\nforce: true\ninterfaces:\n  - serviceKey: org.demo.Greeter:1.0\n    force: false\n";
    assert.equal(migrationOf(consumer, ruleFor(rule, consumer, [])).force, false);
    assert.equal(migrationOf(consumer, ruleFor("force: true", consumer, [])).force, true);
    assert.equal(migrationOf(consumer.withParams({ "migration.force": "true" })).force, true);
    assert.throws(() => ruleFor("force: maybe", consumer, []), /force "maybe" is not true or false/);
  });

  it("a bad step names itself and the accepted ones", () => {
    assert.throws(
      () => ruleFor("step: SOMETIMES", consumer, []),
      /step "SOMETIMES" is not one of FORCE_INTERFACE, APPLICATION_FIRST, FORCE_APPLICATION/,
    );
  });

  it("the application-level list wins when non-empty and its ratio reaches the threshold", () => {
    assert.equal(shouldMigrate(0, 3, 0), false);
    assert.equal(shouldMigrate(1, 0, 5), true);
    assert.equal(shouldMigrate(1, 3, 0), true);
    assert.equal(shouldMigrate(1, 3, 0.5), false);
    assert.equal(shouldMigrate(2, 3, 0.5), true);
  });
});
