/**
 * Deadlines of many in-flight calls on a few timers: one wheel per application (every protocol and
 * every link of the application shares it), never one per process. Calls with the same timeout expire in the order
 * they started, so each distinct timeout needs one timer, armed for its earliest deadline, instead
 * of a `setTimeout` + `clearTimeout` per call (a timer object, a list insertion and a removal on the
 * hot path). A call that settles is only removed from a map; the timer, when it fires, expires what
 * is due and re-arms itself for the next deadline.
 */
/** What the timers hold: an entry told once when its timeout passes before it was deleted. */
export interface TimedEntry {
  onDeadline(): void;
}

interface Bucket {
  readonly timeoutMs: number;
  /** Entry → due time (`performance.now()` ms), in insertion order, hence in due order. */
  readonly due: Map<TimedEntry, number>;
  timer: NodeJS.Timeout | undefined;
  /** Whether the timer currently keeps the process alive (only with `keepAlive`, while entries wait). */
  refed: boolean;
}

/** The longest delay `setTimeout` takes; a longer deadline re-arms when this one fires. */
const MAX_DELAY_MS = 2_147_483_647;

export interface DeadlineTimersOptions {
  /**
   * Whether a waiting entry keeps the process alive (as a referenced `setTimeout` would). With no
   * entry waiting the timer never does.
   */
  readonly keepAlive: boolean;
}

export class DeadlineTimers {
  readonly #buckets = new Map<number, Bucket>();
  readonly #keepAlive: boolean;

  constructor(options: DeadlineTimersOptions) {
    this.#keepAlive = options.keepAlive;
  }

  /** Starts `entry`'s timeout (`timeoutMs` > 0). Delete it with the same `timeoutMs`. */
  add(entry: TimedEntry, timeoutMs: number): void {
    let bucket = this.#buckets.get(timeoutMs);
    if (bucket === undefined) {
      bucket = { timeoutMs, due: new Map(), timer: undefined, refed: false };
      this.#buckets.set(timeoutMs, bucket);
    }
    bucket.due.set(entry, performance.now() + timeoutMs);
    if (bucket.timer === undefined) this.#arm(bucket, timeoutMs);
    else if (this.#keepAlive && !bucket.refed) {
      bucket.timer.ref();
      bucket.refed = true;
    }
  }

  /** Cancels `entry`'s timeout (nothing happens if it already expired). */
  delete(entry: TimedEntry, timeoutMs: number): void {
    const bucket = this.#buckets.get(timeoutMs);
    if (bucket === undefined || !bucket.due.delete(entry)) return;
    // Nothing waits: the armed timer may fire later, but must not hold the process open meanwhile.
    if (bucket.refed && bucket.due.size === 0) {
      bucket.timer?.unref();
      bucket.refed = false;
    }
  }

  #arm(bucket: Bucket, delayMs: number): void {
    const delay = Math.min(MAX_DELAY_MS, Math.max(1, Math.ceil(delayMs)));
    const timer = setTimeout(DeadlineTimers.#fire, delay, this, bucket);
    bucket.refed = this.#keepAlive && bucket.due.size > 0;
    if (!bucket.refed) timer.unref();
    bucket.timer = timer;
  }

  static #fire(this: void, self: DeadlineTimers, bucket: Bucket): void {
    bucket.timer = undefined;
    bucket.refed = false;
    const now = performance.now();
    const expired: TimedEntry[] = [];
    for (const [entry, dueAt] of bucket.due) {
      if (dueAt > now) break;
      expired.push(entry);
    }
    for (const entry of expired) bucket.due.delete(entry);
    const next = bucket.due.values().next();
    if (next.done === true) {
      if (self.#buckets.get(bucket.timeoutMs) === bucket) self.#buckets.delete(bucket.timeoutMs);
    } else {
      self.#arm(bucket, next.value - now);
    }
    for (const entry of expired) entry.onDeadline();
  }
}
