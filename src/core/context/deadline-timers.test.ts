import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DeadlineTimers, type TimedEntry } from "./deadline-timers.js";

describe("deadline timers", () => {
  it("deadline timers - entries expire in order, per timeout; deleted ones never expire", async () => {
    const expired: string[] = [];
    let onAllExpired: () => void = () => {};
    const allExpired = new Promise<void>((resolve) => {
      onAllExpired = resolve;
    });
    const timers = new DeadlineTimers({ keepAlive: false });
    const entries = new Map<string, TimedEntry>();
    const entry = (name: string): TimedEntry => {
      let made = entries.get(name);
      if (made === undefined) {
        made = {
          onDeadline() {
            expired.push(name);
            if (expired.length === 3) onAllExpired();
          },
        };
        entries.set(name, made);
      }
      return made;
    };
    // Kept alive by the test itself, since the timers do not hold the process.
    const guard = setTimeout(() => {}, 5000);
    try {
      timers.add(entry("a"), 20);
      timers.add(entry("cancelled"), 20);
      timers.add(entry("b"), 20);
      timers.add(entry("c"), 40);
      timers.delete(entry("cancelled"), 20);
      await allExpired;
      assert.deepEqual(expired, ["a", "b", "c"]);
      timers.add(entry("d"), 10);
      timers.delete(entry("d"), 10);
      await new Promise((resolve) => setTimeout(resolve, 40));
      assert.deepEqual(expired, ["a", "b", "c"], "a deleted entry never expires");
    } finally {
      clearTimeout(guard);
    }
  });
});
