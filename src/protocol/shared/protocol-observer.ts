/**
 * What a protocol reports to whoever watches it (the application's monitor): links to and
 * from it coming up and down, and requests a full thread pool refused. Called on the I/O path;
 * implementations must be cheap and must not throw.
 */
export interface ProtocolObserver {
  /** `client`: our link to a provider at `peer`; `server`: a caller's link from `peer`. */
  connection(peer: string, role: "client" | "server", up: boolean): void;
  /** The server at `server` refused a request: `active` calls running, `queued` waiting. */
  poolExhausted(server: string, active: number, queued: number): void;
}
