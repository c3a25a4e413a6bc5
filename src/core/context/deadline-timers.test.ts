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

describe("deadline timers, queue links", () => {
  it("deadline timers - a re-added entry waits once, and an entry that left its queue links to nothing", async () => {
    const timers = new DeadlineTimers({ keepAlive: false });
    const expired: string[] = [];
    const entry = (name: string): TimedEntry => ({ onDeadline: () => expired.push(name) });
    const [a, b, c] = [entry("a"), entry("b"), entry("c")];
    const guard = setTimeout(() => {}, 5000);
    try {
      timers.add(a, 10);
      timers.add(b, 10);
      timers.add(c, 10);
      timers.add(a, 10); // restarts a's timeout: it now expires after c, once
      timers.delete(b, 20); // another timeout's queue: b keeps waiting
      timers.delete(c, 10);
      assert.equal(c.deadlineQueue, undefined);
      assert.equal(c.deadlineNext, undefined);
      assert.equal(c.deadlinePrevious, undefined);
      await new Promise((resolve) => setTimeout(resolve, 40));
      assert.deepEqual(expired, ["b", "a"]);
      for (const left of [a, b]) {
        assert.equal(left.deadlineQueue, undefined);
        assert.equal(left.deadlineNext, undefined);
        assert.equal(left.deadlinePrevious, undefined);
      }
      timers.delete(a, 10); // already expired: nothing happens
    } finally {
      clearTimeout(guard);
    }
  });
});
