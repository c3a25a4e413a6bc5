/**
 * Deadlines of many in-flight calls on a few timers: one wheel per application (every protocol and
 * every link of the application shares it), never one per process. Calls with the same timeout expire in the order
 * they started, so each distinct timeout needs one timer, armed for its earliest deadline, instead
 * of a `setTimeout` + `clearTimeout` per call (a timer object, a list insertion and a removal on the
 * hot path). A call that settles is only removed from a map; the timer, when it fires, expires what
 * is due and re-arms itself for the next deadline.
 */
/**
 * What the timers hold: an entry told once when its timeout passes before it was deleted. A waiting
 * entry is a link of its timeout's queue: the `deadline*` fields belong to the timers (an entry
 * declares them only to keep its shape stable) and are cleared when it leaves the queue.
 */
export interface TimedEntry {
  onDeadline(): void;
  /** Due time (`performance.now()` ms) while the entry waits. */
  deadlineDueAt?: number;
  /** The queue the entry waits in; undefined once it expired or was deleted. */
  deadlineQueue?: DeadlineQueue | undefined;
  deadlinePrevious?: TimedEntry | undefined;
  deadlineNext?: TimedEntry | undefined;
}

/**
 * The entries of one timeout, in the order they started, hence in due order. A linked queue, not a
 * `Map`: a `Map` that calls enter and leave all the time keeps replacing its table, and V8 keeps an
 * old table's entries and a link to its successor until a full GC, so once one table reached the
 * old generation every later table and every call they held survived the scavenges (measured on
 * the e2e consumer: about 2.5 MB promoted per scavenge, a mark-compact every few thousand calls).
 * A link that leaves this queue is cleared, so a dead entry holds no other.
 */
interface DeadlineQueue {
  readonly timeoutMs: number;
  first: TimedEntry | undefined;
  last: TimedEntry | undefined;
  size: number;
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
  readonly #queues = new Map<number, DeadlineQueue>();
  readonly #keepAlive: boolean;

  constructor(options: DeadlineTimersOptions) {
    this.#keepAlive = options.keepAlive;
  }

  /**
   * Starts `entry`'s timeout (`timeoutMs` > 0), restarting it if it was waiting. Delete it with the
   * same `timeoutMs`. `now` is `performance.now()`, passed by a caller that read it already.
   */
  add(entry: TimedEntry, timeoutMs: number, now = performance.now()): void {
    if (entry.deadlineQueue !== undefined) unlink(entry.deadlineQueue, entry);
    let queue = this.#queues.get(timeoutMs);
    if (queue === undefined) {
      queue = { timeoutMs, first: undefined, last: undefined, size: 0, timer: undefined, refed: false };
      this.#queues.set(timeoutMs, queue);
    }
    entry.deadlineDueAt = now + timeoutMs;
    entry.deadlineQueue = queue;
    entry.deadlinePrevious = queue.last;
    entry.deadlineNext = undefined;
    if (queue.last === undefined) queue.first = entry;
    else queue.last.deadlineNext = entry;
    queue.last = entry;
    queue.size++;
    if (queue.timer === undefined) this.#arm(queue, timeoutMs);
    else if (this.#keepAlive && !queue.refed) {
      queue.timer.ref();
      queue.refed = true;
    }
  }

  /** Cancels `entry`'s timeout (nothing happens if it already expired). */
  delete(entry: TimedEntry, timeoutMs: number): void {
    const queue = entry.deadlineQueue;
    if (queue === undefined || queue.timeoutMs !== timeoutMs) return;
    unlink(queue, entry);
    // Nothing waits: the armed timer may fire later, but must not hold the process open meanwhile.
    if (queue.refed && queue.size === 0) {
      queue.timer?.unref();
      queue.refed = false;
    }
  }

  #arm(queue: DeadlineQueue, delayMs: number): void {
    const delay = Math.min(MAX_DELAY_MS, Math.max(1, Math.ceil(delayMs)));
    const timer = setTimeout(DeadlineTimers.#fire, delay, this, queue);
    queue.refed = this.#keepAlive && queue.size > 0;
    if (!queue.refed) timer.unref();
    queue.timer = timer;
  }

  static #fire(this: void, self: DeadlineTimers, queue: DeadlineQueue): void {
    queue.timer = undefined;
    queue.refed = false;
    const now = performance.now();
    const expired: TimedEntry[] = [];
    for (
      let entry = queue.first;
      entry !== undefined && (entry.deadlineDueAt ?? 0) <= now;
      entry = queue.first
    ) {
      unlink(queue, entry);
      expired.push(entry);
    }
    const next = queue.first;
    if (next === undefined) {
      if (self.#queues.get(queue.timeoutMs) === queue) self.#queues.delete(queue.timeoutMs);
    } else {
      self.#arm(queue, (next.deadlineDueAt ?? now) - now);
    }
    for (const entry of expired) entry.onDeadline();
  }
}

function unlink(queue: DeadlineQueue, entry: TimedEntry): void {
  const previous = entry.deadlinePrevious;
  const next = entry.deadlineNext;
  if (previous === undefined) queue.first = next;
  else previous.deadlineNext = next;
  if (next === undefined) queue.last = previous;
  else next.deadlinePrevious = previous;
  queue.size--;
  entry.deadlineQueue = undefined;
  entry.deadlinePrevious = undefined;
  entry.deadlineNext = undefined;
}
