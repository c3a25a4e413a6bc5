import {
  DEFAULT_RECONNECT_INITIAL_MS,
  DEFAULT_RECONNECT_JITTER,
  DEFAULT_RECONNECT_PERIOD_MS,
} from "../core/index.js";

export interface BackoffOptions {
  /** The first delay after a healthy link drops, ms: small, so a blip heals fast. */
  readonly initialMs?: number;
  /** `reconnect`: every later attempt comes at most this many ms after the previous one. */
  readonly periodMs?: number;
  /** Fraction of the delay taken off at random, so many clients do not reconnect in step. */
  readonly jitter?: number;
  /** A source of [0, 1) numbers (seed it in tests). */
  readonly random?: () => number;
}

/**
 * When a dropped link tries again. The delay never exceeds the `reconnect` period, however long
 * the peer has been gone, so a provider that comes back is reached within one period.
 */
export interface Backoff {
  /** The delay before the next attempt. */
  next(): number;
  /** Back to the quick first attempt (after a connection proved healthy). */
  reset(): void;
  /** No quick first attempt: a peer that accepted then dropped us at once waits a full period. */
  penalize(): void;
}

/** A quick first attempt (100 ms), then one every `reconnect` period (2 s), up to 20 % earlier. */
export function createBackoff(options: BackoffOptions = {}): Backoff {
  const period = Math.max(1, options.periodMs ?? DEFAULT_RECONNECT_PERIOD_MS);
  const initial = Math.min(period, options.initialMs ?? DEFAULT_RECONNECT_INITIAL_MS);
  const jitter = Math.min(1, Math.max(0, options.jitter ?? DEFAULT_RECONNECT_JITTER));
  const random = options.random ?? Math.random;
  let first = true;
  return {
    next() {
      const base = first ? initial : period;
      first = false;
      // Jitter only shortens the delay: the period stays a bound.
      return Math.max(0, Math.round(base * (1 - jitter * random())));
    },
    reset() {
      first = true;
    },
    penalize() {
      first = false;
    },
  };
}
