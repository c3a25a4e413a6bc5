import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSeededRandom } from "../testing/index.js";
import { createBackoff } from "./backoff.js";

describe("reconnect backoff", () => {
  it("backoff - a quick first attempt, then never more than one period apart however long the peer is gone", () => {
    const backoff = createBackoff({
      initialMs: 100,
      periodMs: 2000,
      jitter: 0.2,
      random: createSeededRandom(42),
    });
    const first = backoff.next();
    assert.ok(first >= 80 && first <= 100, `first attempt after ${first} ms`);
    // 100 attempts: over three minutes of outage at 2 s, where an exponential backoff would be at its cap.
    for (let attempt = 0; attempt < 100; attempt++) {
      const delay = backoff.next();
      assert.ok(delay >= 1600 && delay <= 2000, `attempt ${attempt} after ${delay} ms`);
    }
    backoff.reset();
    assert.ok(backoff.next() <= 100, "quick again after a healthy connection");
  });

  it("backoff - a peer that dropped us at once waits a full period; the first attempt never exceeds the period", () => {
    const penalized = createBackoff({ initialMs: 100, periodMs: 2000, jitter: 0, random: () => 0.5 });
    penalized.penalize();
    assert.equal(penalized.next(), 2000);
    assert.equal(createBackoff({ initialMs: 5000, periodMs: 300, jitter: 0 }).next(), 300);
  });
});
