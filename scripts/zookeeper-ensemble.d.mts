/** One member of an ensemble started by `startZooKeeperEnsemble` (scripts/zookeeper-ensemble.mjs). */
export interface EnsembleServer {
  /** Its `myid`. */
  readonly id: number;
  readonly port: number;
  /** `127.0.0.1:<port>`. */
  readonly address: string;
  readonly dataDir: string;
  readonly logFile: string;
  /** The JVM's pid (it leads its own process group). Changes after `start()`. */
  readonly pid: number;
  readonly alive: boolean;
  /** Starts it again on the same port and data; with `wait` (default) until it serves requests. */
  start(wait?: boolean): Promise<void>;
  /** Resolves once it serves requests (it needs a quorum for that). */
  serving(): Promise<void>;
  /** SIGTERM, then SIGKILL if it does not exit. */
  halt(): Promise<void>;
  /** `kill -9` by pid, as a crash. */
  kill(): Promise<void>;
  /** `leader`, `follower`, or undefined while it serves nothing. */
  mode(): Promise<string | undefined>;
  /** The ids (16 hex digits, as `ephemeralOwner`) of the sessions connected to it now. */
  sessions(): Promise<string[]>;
}

export interface ZooKeeperEnsemble {
  readonly servers: readonly EnsembleServer[];
  /** `host:port,host:port,…` */
  readonly connectString: string;
  /** `host:port?backup=host:port,host:port`, for `zookeeper://${registryAddress}`. */
  readonly registryAddress: string;
  /** The current leader, or undefined during an election or without a quorum. */
  leader(): Promise<EnsembleServer | undefined>;
  /** The server a session is connected to now. */
  serverOf(sessionId: string): Promise<EnsembleServer | undefined>;
  /** Stops every server and removes their data dirs. */
  stop(): Promise<void>;
}

export function startZooKeeperEnsemble(options?: { readonly size?: number }): Promise<ZooKeeperEnsemble>;
