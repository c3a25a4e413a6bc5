// One real ZooKeeper server per test file, with a scratch directory for cache files and an
// inspector client that reads and writes nodes the way an operator (or dubbo-admin) would.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";

export interface ZooKeeperFixture {
  readonly zk: ZooKeeperServer;
  /** A scratch directory, removed after the file's tests. */
  readonly dir: string;
  readonly inspector: ZkClient;
  /** Run in reverse order after the file's tests, before ZooKeeper stops. */
  readonly cleanups: Array<() => Promise<unknown>>;
}

/** Starts ZooKeeper before the file's tests and stops it, and everything in `cleanups`, after. */
export function useZooKeeper(dirPrefix: string): ZooKeeperFixture {
  let zk: ZooKeeperServer | undefined;
  let dir: string | undefined;
  let inspector: ZkClient | undefined;
  const cleanups: Array<() => Promise<unknown>> = [];
  before(async () => {
    zk = await startZooKeeper();
    dir = mkdtempSync(join(tmpdir(), dirPrefix));
    inspector = new ZkClient({
      connectString: zk.connectString,
      sessionTimeoutMs: 10_000,
      operationTimeoutMs: 5000,
    });
    await inspector.connect(10_000);
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    inspector?.close();
    await zk?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("ZooKeeper is not started yet (use it inside a test)");
    return value;
  };
  return {
    get zk() {
      return started(zk);
    },
    get dir() {
      return started(dir);
    },
    get inspector() {
      return started(inspector);
    },
    cleanups,
  };
}
