// Tracks every call the soak starts until it settles: answers, failures by code, and lost calls
// (still unsettled past their longest possible duration plus a margin).
import { codeToString, RpcError } from "../../src/core/index.js";

export interface CallFigures {
  readonly started: number;
  readonly answered: number;
  readonly failed: number;
  readonly failuresByCode: Readonly<Record<string, number>>;
  /** Calls whose promise had not settled by their deadline (counted once, even if they settle later). */
  readonly lost: number;
  /** Lost calls that did settle afterwards. */
  readonly settledAfterLost: number;
  readonly wrongAnswers: number;
  readonly pending: number;
}

export interface CallTracker {
  /** Follows one call; `expected` checks its answer. */
  track(method: string, call: Promise<unknown>, expected: (answer: unknown) => boolean): void;
  /** Counts as lost every pending call past its deadline. */
  sweep(now?: number): void;
  /** Resolves once nothing is pending, or at `limitMs`. */
  drain(limitMs: number): Promise<void>;
  figures(): CallFigures;
}

export function createCallTracker(lostAfterMs: number): CallTracker {
  const pending = new Map<number, { readonly deadline: number; lost: boolean }>();
  const failuresByCode: Record<string, number> = {};
  let nextId = 0;
  let started = 0;
  let answered = 0;
  let failed = 0;
  let lost = 0;
  let settledAfterLost = 0;
  let wrongAnswers = 0;

  function settle(id: number): void {
    const entry = pending.get(id);
    pending.delete(id);
    if (entry?.lost === true) settledAfterLost++;
  }

  function sweep(now = Date.now()): void {
    for (const entry of pending.values()) {
      if (!entry.lost && now > entry.deadline) {
        entry.lost = true;
        lost++;
      }
    }
  }

  return {
    track(method, call, expected) {
      const id = nextId++;
      started++;
      pending.set(id, { deadline: Date.now() + lostAfterMs, lost: false });
      call.then(
        (answer) => {
          settle(id);
          answered++;
          if (!expected(answer)) wrongAnswers++;
        },
        (error: unknown) => {
          settle(id);
          failed++;
          const code = error instanceof RpcError ? codeToString(error.code) : "not an RpcError";
          const key = `${method} ${code}`;
          failuresByCode[key] = (failuresByCode[key] ?? 0) + 1;
        },
      );
    },
    sweep,
    async drain(limitMs) {
      const until = Date.now() + limitMs;
      while (pending.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
      sweep(Number.POSITIVE_INFINITY);
    },
    figures: () => ({
      started,
      answered,
      failed,
      failuresByCode: { ...failuresByCode },
      lost,
      settledAfterLost,
      wrongAnswers,
      pending: pending.size,
    }),
  };
}
