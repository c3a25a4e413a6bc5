import type { CallOutcome } from "../events.js";

/** Response times kept for the percentiles: the most recent ones, a bounded ring. */
const RT_SAMPLES = 1024;
/** Java 3's qps window (`AggregateMetricsCollector`, 3000 ms), in 10 buckets. */
const QPS_WINDOW_MS = 3000;
const QPS_BUCKETS = 10;
const QPS_BUCKET_MS = QPS_WINDOW_MS / QPS_BUCKETS;

/** Counts of one method on one side; what a scrape renders. Updated in O(1) per call. */
export class MethodStats {
  total = 0;
  succeed = 0;
  business = 0;
  timeout = 0;
  limit = 0;
  network = 0;
  codec = 0;
  unknown = 0;
  processing = 0;
  rtCount = 0;
  rtSum = 0;
  rtMin = Number.POSITIVE_INFINITY;
  rtMax = 0;
  rtLast = 0;
  readonly #samples = new Float64Array(RT_SAMPLES);
  readonly #qps = new Uint32Array(QPS_BUCKETS);
  #qpsBucket = 0;
  readonly #createdAt: number;

  constructor(now: number) {
    this.#createdAt = now;
    this.#qpsBucket = Math.floor(now / QPS_BUCKET_MS);
  }

  started(now: number): void {
    this.total++;
    this.processing++;
    this.#advance(now);
    this.#qps[this.#qpsBucket % QPS_BUCKETS]!++;
  }

  finished(outcome: CallOutcome, durationMs: number): void {
    this.processing--;
    this[outcome === "success" ? "succeed" : outcome]++;
    this.#samples[this.rtCount % RT_SAMPLES] = durationMs;
    this.rtCount++;
    this.rtSum += durationMs;
    this.rtLast = durationMs;
    if (durationMs < this.rtMin) this.rtMin = durationMs;
    if (durationMs > this.rtMax) this.rtMax = durationMs;
  }

  get failed(): number {
    return this.business + this.timeout + this.limit + this.network + this.codec + this.unknown;
  }

  /** Calls started per second over the last 3 s (or since the first call, if sooner). */
  qps(now: number): number {
    this.#advance(now);
    let calls = 0;
    for (const n of this.#qps) calls += n;
    const seconds = Math.min(QPS_WINDOW_MS, Math.max(now - this.#createdAt, QPS_BUCKET_MS)) / 1000;
    return calls / seconds;
  }

  /** The q-quantile (0..1) of the recent response times, nearest rank; 0 before any call. */
  quantile(q: number): number {
    const n = Math.min(this.rtCount, RT_SAMPLES);
    if (n === 0) return 0;
    const sorted = this.#samples.slice(0, n).sort();
    return sorted[Math.min(n - 1, Math.ceil(q * n) - 1)]!;
  }

  /** Clears the buckets that time has passed since the last call. */
  #advance(now: number): void {
    const bucket = Math.floor(now / QPS_BUCKET_MS);
    const passed = bucket - this.#qpsBucket;
    if (passed <= 0) return;
    for (let i = 1; i <= Math.min(passed, QPS_BUCKETS); i++)
      this.#qps[(this.#qpsBucket + i) % QPS_BUCKETS] = 0;
    this.#qpsBucket = bucket;
  }
}
