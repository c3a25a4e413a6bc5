/** What a request pool shows of itself (Java's `ThreadPoolExecutor` sizes). */
export interface ThreadPoolSizes {
  /** Most tasks running at once; `Infinity` when unbounded. */
  readonly threads: number;
  readonly active: number;
  readonly queued: number;
  /** Most tasks that ever ran at once. */
  readonly largest: number;
}

/**
 * What a protocol reports to whoever watches it (the application's monitor): links to and
 * from it coming up and down, its servers' request pools opening and closing, and requests a
 * full pool refused. Called on the I/O path;
 * implementations must be cheap and must not throw.
 */
export interface ProtocolObserver {
  /** `client`: our link to a provider at `peer`; `server`: a caller's link from `peer`. */
  connection(peer: string, role: "client" | "server", up: boolean): void;
  /** The server at `server` refused a request: `active` calls running, `queued` waiting. */
  poolExhausted(server: string, active: number, queued: number): void;
  /** The server at `server` opened (`open`) or closed its request pool. */
  threadPool(server: string, pool: ThreadPoolSizes, open: boolean): void;
}
