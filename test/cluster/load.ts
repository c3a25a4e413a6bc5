// A bounded closed-loop load: `concurrency` workers each issue one call at a time until stopped or
// until `maxCalls` have been issued. Every call gets a sequence number in issue order, so a test can
// say "calls issued after the kill" without looking at a clock.

export interface CallOutcome {
  readonly seq: number;
  /** The provider id the call returned, when it succeeded. */
  readonly servedBy?: string;
  readonly error?: unknown;
}

export interface Load {
  /** Calls issued so far (the next call's sequence number). */
  readonly issued: number;
  readonly outcomes: readonly CallOutcome[];
  /** Successful calls per provider id so far. */
  served(id: string): number;
  /** Stops issuing; resolves once every call in flight has settled. */
  stop(): Promise<void>;
  /** Resolves when every worker has finished (stopped or `maxCalls` reached). */
  readonly done: Promise<void>;
}

export interface LoadOptions {
  readonly concurrency: number;
  /** The hard bound on calls issued, whatever the test waits for. */
  readonly maxCalls: number;
}

export function startLoad(call: (seq: number) => Promise<string>, options: LoadOptions): Load {
  const outcomes: CallOutcome[] = [];
  const servedCounts = new Map<string, number>();
  let issued = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && issued < options.maxCalls) {
      const seq = issued++;
      try {
        const servedBy = await call(seq);
        servedCounts.set(servedBy, (servedCounts.get(servedBy) ?? 0) + 1);
        outcomes.push({ seq, servedBy });
      } catch (error) {
        outcomes.push({ seq, error });
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.concurrency }, worker)).then(() => undefined);
  return {
    get issued() {
      return issued;
    },
    outcomes,
    served: (id) => servedCounts.get(id) ?? 0,
    stop() {
      stopped = true;
      return done;
    },
    done,
  };
}

/** The outcomes that failed, as readable lines for an assertion message. */
export function describeFailures(outcomes: readonly CallOutcome[], limit = 5): string {
  const failed = outcomes.filter((o) => o.error !== undefined);
  const lines = failed.slice(0, limit).map((o) => `#${o.seq}: ${String(o.error)}`);
  return `${failed.length} call(s) failed${lines.length > 0 ? `:\n${lines.join("\n")}` : ""}`;
}

/** Mulberry32: a small seeded [0, 1) source, so balancer choices repeat run to run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
