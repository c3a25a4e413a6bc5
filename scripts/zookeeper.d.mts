/** A standalone ZooKeeper started by `startZooKeeper` (scripts/zookeeper.mjs). */
export interface ZooKeeperServer {
  readonly port: number;
  /** `127.0.0.1:<port>`, for `zookeeper://${connectString}`. */
  readonly connectString: string;
  readonly dataDir: string;
  /** The server's stdout/stderr, for diagnosing a failed test. */
  readonly logFile: string;
  /** The JVM's pid (it leads its own process group). Changes after `start()`/`restart()`. */
  readonly pid: number;
  /** Stops the server but keeps its data dir and port for a later `start()`. */
  halt(): Promise<void>;
  /** Deletes a halted server's snapshots and transaction logs, as a rebuilt server would have none. */
  wipeData(): void;
  /** Starts a halted server again on the same port and data dir. */
  start(): Promise<void>;
  /** `halt()` then `start()`: same port, same data, sessions survive if their timeout has not passed. */
  restart(): Promise<void>;
  /** Stops the server for good and removes its data dir. */
  stop(): Promise<void>;
}

export interface StartZooKeeperOptions {
  /** A fixed port instead of a free one. */
  readonly port?: number;
  /** Keep the data dir after `stop()`. */
  readonly keepData?: boolean;
}

export function startZooKeeper(options?: StartZooKeeperOptions): Promise<ZooKeeperServer>;
export function freePort(): Promise<number>;
export function fourLetterWord(port: number, word: string, timeoutMs?: number): Promise<string>;
