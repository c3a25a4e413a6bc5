import {
  DEFAULT_RECONNECT_INITIAL_MS,
  DEFAULT_RECONNECT_JITTER,
  DEFAULT_RECONNECT_MAX_MS,
  DEFAULT_RECONNECT_MULTIPLIER,
} from "../core/index.js";

export interface BackoffOptions {
  /** First delay, ms: small, so a blip heals fast. */
  readonly initialMs?: number;
  readonly multiplier?: number;
  /** Largest delay before jitter, ms. */
  readonly maxMs?: number;
  /** Fraction of ± random spread, so many clients do not reconnect in step. */
  readonly jitter?: number;
  /** A source of [0, 1) numbers (seed it in tests). */
  readonly random?: () => number;
}

export interface Backoff {
  /** The delay before the next attempt; each call grows the base delay. */
  next(): number;
  /** Back to the first delay (after a connection proved healthy). */
  reset(): void;
  /** Grow the base delay by extra steps (a peer that accepts then drops us at once). */
  penalize(steps: number): void;
}

/** Exponential backoff with jitter: 100 ms ×2 up to 30 s, ± 20 % by default. */
export function createBackoff(options: BackoffOptions = {}): Backoff {
  const initial = options.initialMs ?? DEFAULT_RECONNECT_INITIAL_MS;
  const multiplier = options.multiplier ?? DEFAULT_RECONNECT_MULTIPLIER;
  const max = options.maxMs ?? DEFAULT_RECONNECT_MAX_MS;
  const jitter = options.jitter ?? DEFAULT_RECONNECT_JITTER;
  const random = options.random ?? Math.random;
  let base = initial;
  return {
    next() {
      const spread = base * jitter * (random() * 2 - 1);
      const delay = Math.max(0, Math.round(base + spread));
      base = Math.min(max, base * multiplier);
      return delay;
    },
    reset() {
      base = initial;
    },
    penalize(steps) {
      for (let i = 0; i < steps; i++) base = Math.min(max, base * multiplier);
    },
  };
}
