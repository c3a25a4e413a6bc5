import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DeadlineTimers } from "./deadline-timers.js";

describe("deadline timers", () => {
  it("deadline timers - entries expire in order, per timeout; deleted ones never expire", async () => {
    const expired: string[] = [];
    let onAllExpired: () => void = () => {};
    const allExpired = new Promise<void>((resolve) => {
      onAllExpired = resolve;
    });
    const timers = new DeadlineTimers<string>(
      (entry) => {
        expired.push(entry);
        if (expired.length === 3) onAllExpired();
      },
      { keepAlive: false },
    );
    // Kept alive by the test itself, since the timers do not hold the process.
    const guard = setTimeout(() => {}, 5000);
    try {
      timers.add("a", 20);
      timers.add("cancelled", 20);
      timers.add("b", 20);
      timers.add("c", 40);
      timers.delete("cancelled", 20);
      await allExpired;
      assert.deepEqual(expired, ["a", "b", "c"]);
      timers.add("d", 10);
      timers.delete("d", 10);
      await new Promise((resolve) => setTimeout(resolve, 40));
      assert.deepEqual(expired, ["a", "b", "c"], "a deleted entry never expires");
    } finally {
      clearTimeout(guard);
    }
  });
});
