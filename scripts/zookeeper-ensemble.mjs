// Starts a real ZooKeeper ensemble (Debian's `zookeeper` package, QuorumPeerMain) on loopback for
// tests: `size` servers (3 by default) with free client, quorum and election ports, fresh temp data
// dirs, and a short tick so elections take well under a second. Each server runs in its own process
// group and is stopped or killed by pid, never by name.
//
//   import { startZooKeeperEnsemble } from "../../scripts/zookeeper-ensemble.mjs";
//   const ensemble = await startZooKeeperEnsemble();
//   ... zookeeper://${ensemble.registryAddress} ...   // first server, ?backup= the others
//   const leader = await ensemble.leader();
//   await leader.kill();                               // kill -9; the others elect a new leader
//   await leader.start();                              // rejoins as a follower
//   await ensemble.stop();                             // in after(); also removes the data dirs
//
// Run it by hand: `node scripts/zookeeper-ensemble.mjs` prints the connect string until Ctrl-C.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertInstalled, fourLetterWord, freePort, HOST, serverProcess, writeConfig } from "./zookeeper.mjs";

const QUORUM_MAIN = "org.apache.zookeeper.server.quorum.QuorumPeerMain";
/** ZooKeeper's `ExitCode.UNABLE_TO_BIND_QUORUM_PORT`. */
const UNABLE_TO_BIND_QUORUM_PORT = 14;
const START_ATTEMPTS = 3;

/**
 * @param {{ size?: number }} [options]
 * @returns {Promise<import("./zookeeper-ensemble.d.mts").ZooKeeperEnsemble>}
 */
export async function startZooKeeperEnsemble(options = {}) {
  assertInstalled();
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchEnsemble(options.size ?? 3);
    } catch (error) {
      // Another process may still bind a port between our check and the JVM's bind (exit 14,
      // UNABLE_TO_BIND_QUORUM_PORT): start again on fresh ports.
      if (error.exitCode !== UNABLE_TO_BIND_QUORUM_PORT || attempt === START_ATTEMPTS) throw error;
    }
  }
}

async function launchEnsemble(size) {
  const members = [];
  for (let id = 1; id <= size; id++) {
    members.push({
      id,
      port: await freePort(),
      quorumPort: await freePort(),
      electionPort: await freePort(),
    });
  }
  const peers = members.map((m) => `server.${m.id}=${HOST}:${m.quorumPort}:${m.electionPort}`);
  const servers = members.map((member) => {
    const dataDir = mkdtempSync(join(tmpdir(), `dubbo-ts-zk${member.id}-`));
    const logFile = join(dataDir, "zookeeper.log");
    const config = writeConfig(dataDir, member.port, [
      "tickTime=200",
      "initLimit=10",
      "syncLimit=5",
      ...peers,
    ]);
    const jvm = serverProcess(member.port, config, logFile, QUORUM_MAIN);
    mkdirSync(join(dataDir, "data"));
    writeFileSync(join(dataDir, "data", "myid"), `${member.id}\n`);
    return {
      id: member.id,
      port: member.port,
      address: `${HOST}:${member.port}`,
      dataDir,
      logFile,
      get pid() {
        return jvm.pid;
      },
      get alive() {
        return jvm.alive;
      },
      /** Starts the server again on its port and data; with `wait` (default), until it serves. */
      start: (wait = true) => jvm.start(wait),
      serving: () => jvm.serving(),
      halt: () => jvm.halt(),
      /** `kill -9` by pid. */
      kill: () => jvm.kill(),
      /** `leader`, `follower`, or undefined while it serves nothing (down, or without a quorum). */
      async mode() {
        const reply = await fourLetterWord(member.port, "srvr", 1000).catch(() => "");
        return /Mode: (\w+)/.exec(reply)?.[1];
      },
      /** The session ids (16 hex digits) connected to this server now. */
      async sessions() {
        const reply = await fourLetterWord(member.port, "cons", 1000).catch(() => "");
        return [...reply.matchAll(/sid=0x([0-9a-f]+)/g)].map((m) => m[1].padStart(16, "0"));
      },
    };
  });
  await Promise.all(servers.map((s) => s.start(false)));
  try {
    await Promise.all(servers.map((s) => s.serving()));
  } catch (error) {
    await Promise.all(servers.map((s) => s.halt().catch(() => {})));
    for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
    throw error;
  }
  const [first, ...others] = servers;
  return {
    servers,
    connectString: servers.map((s) => s.address).join(","),
    registryAddress: `${first.address}?backup=${others.map((s) => s.address).join(",")}`,
    async leader() {
      for (const server of servers) if ((await server.mode()) === "leader") return server;
      return undefined;
    },
    /** The server a session (16 hex digits, as `ephemeralOwner`) is connected to now. */
    async serverOf(sessionId) {
      for (const server of servers) if ((await server.sessions()).includes(sessionId)) return server;
      return undefined;
    },
    async stop() {
      await Promise.all(servers.map((s) => s.halt()));
      for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ensemble = await startZooKeeperEnsemble();
  process.stdout.write(`ZooKeeper ensemble ${ensemble.connectString}; Ctrl-C stops it\n`);
  const stop = () => ensemble.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  setInterval(() => {}, 1 << 30);
}
